import { z } from 'zod';
import { PublicKeySchema } from './secupass';
import { SubmissionJsonHeadSchema } from './submission-json';

/**
 * Web forms at levels 3/4 (SPEC §5, issue 16 §2): the submitter's browser encrypts the files AND
 * the field values to every recipient's public key; the server never sees either in clear.
 *
 * - Save: a level 3/4 form needs every recipient (mandatory and optional) to be a registered user
 *   with an active SecuPass, else 409 `FormRecipientWithoutPassphraseException` naming them
 *   (`metadata.recipients`).
 * - Public page: a level 3/4 form answers `e2eRecipients` (each recipient's user id and live
 *   public keys with fingerprints) so the browser pins exactly these keys for the send; a recipient
 *   who lost E2E after the save makes the page state 409 `FormPassphraseNotSetException`.
 * - Submit: the body carries no values (400 `encryptedValuesOnly` otherwise); the draft's sender
 *   is a submitter account made for this one submission, whose throwaway SecuPass the browser
 *   stores with the submit box's `PUT /submit-box/deliveries/{deliveryUuid}/keys`. The values travel
 *   as the encrypted file `form-values.json` (FormValuesDocument) beside the uploaded files.
 */

export const FORM_E2E_ERRORS = {
  recipientWithoutPassphrase: 'FormRecipientWithoutPassphraseException',
  passphraseNotSet: 'FormPassphraseNotSetException',
} as const;

/** The name of the encrypted part that holds the values of a level 3/4 submission. */
export const FORM_VALUES_FILE_NAME = 'form-values.json';

export const FormE2eRecipientSchema = z
  .object({
    /** Pin ids are `<userUuid>:encryption` (shared/crypto key-pinning). */
    userUuid: z.string(),
    keys: z.array(PublicKeySchema.extend({ fingerprint: z.string() })),
  })
  .meta({ id: 'FormE2eRecipient' });
export type FormE2eRecipient = z.infer<typeof FormE2eRecipientSchema>;

/** Added to the public form: empty below level 3 (addresses of mandatory recipients stay hidden). */
export const PUBLIC_FORM_E2E_SHAPE = { e2eRecipients: z.array(FormE2eRecipientSchema) };

/**
 * Added to the submit answer: at levels 3/4 the user id the throwaway SecuPass is bound to (null
 * below), and for a form with a process service the head of `submission.json` the browser
 * completes with the values and encrypts as one more file (docs/flows.md "Levels 3 and 4"; null
 * otherwise: at levels 1/2 the server attaches the JSON itself).
 */
export const FORM_SUBMIT_E2E_SHAPE = { submitterUserUuid: z.string().nullable(), submissionJsonHead: SubmissionJsonHeadSchema.nullable() };

/** The plaintext of `form-values.json` (encrypted in the browser like any file). */
export const FormValuesDocumentSchema = z
  .object({
    format: z.literal(1),
    formUuid: z.string(),
    formName: z.string(),
    /** Field name → value, as the public form collected it (files: their names, sizes and types). */
    values: z.record(z.string(), z.unknown()),
    chosenRecipients: z.array(z.string()),
    submittedAt: z.string(),
    /** Text template name → its text, filled in by the browser before sealing (the server cannot read the values); absent without templates. */
    texts: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'FormValuesDocument' });
export type FormValuesDocument = z.infer<typeof FormValuesDocumentSchema>;
