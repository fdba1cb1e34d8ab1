import type { ApiClient } from '@shared/api/client';
import { submitForm } from '@shared/api/endpoints/forms';
import { putSubmitterKeys, submitSessionClient } from '@shared/api/endpoints/submit-box';
import { FORM_VALUES_FILE_NAME, FormValuesDocumentSchema, type FormE2eRecipient, type FormValuesDocument } from '@shared/contract/form-e2e';
import { SUBMISSION_JSON_FILE, type SubmissionJsonHead } from '@shared/contract/flows';
import { buildSubmissionJson } from '@shared/rules/submission-json';
import { fillTemplate } from '@shared/rules/form-rules';
import type { CustomField, FieldValue, FormSubmitBody, FormSubmitResponse, PublicForm } from '@shared/contract/forms';
import { encryptsMessage, isE2eLevel } from '@shared/contract/security-levels';
import { toBase64Url, utf8Decode } from '@shared/crypto/bytes';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';
import { downloadE2eFile, type OpenedE2eDelivery } from './e2e';
import { sendDelivery, type SendProgress, type SendResult } from './send-delivery';
import type { UploadSource } from './upload';

/**
 * Submitters without an account at levels 3/4 (the submit box and web forms, shared/crypto/README.md
 * "Submit box"): a SecuPass for the submitter account of this one submission, with 32 random bytes
 * as passphrase that nobody keeps. Its keys sign the manifest and receive the sender's copies.
 */
export async function throwawaySubmitterKeys(input: { crypto: CryptoApi; client: ApiClient; submitterUserUuid: string; deliveryUuid: string }): Promise<UnlockedKeys> {
  const passphrase = toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const { blob, keys } = await input.crypto.setupSecuPass({ userId: input.submitterUserUuid, passphrase });
  await putSubmitterKeys(input.client, input.deliveryUuid, {
    blob,
    publicKeys: blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })),
  });
  return keys;
}

/**
 * The anonymous submitter has no pin list: it pins the recipients' keys the public form showed
 * (fingerprints recomputed here), so the send refuses any other key the server might present later.
 */
export async function pinsOfFormRecipients(crypto: CryptoApi, recipients: readonly FormE2eRecipient[]): Promise<MemoryKeyPinStore> {
  const pins = new MemoryKeyPinStore();
  for (const recipient of recipients) {
    for (const key of recipient.keys.filter((k) => k.usage === 'encryption')) {
      const { fingerprint } = await crypto.fingerprint({ publicKey: key.publicKey });
      await pins.set(`${recipient.userUuid}:encryption`, fingerprint);
    }
  }
  return pins;
}

/** The values of a level 3/4 submission as the file `form-values.json` (encrypted like the others). */
export function formValuesFile(form: Pick<PublicForm, 'formUuid' | 'name' | 'customFields'>, values: Record<string, FieldValue>, chosenRecipients: readonly string[]): UploadSource {
  const texts = filledTemplates(form.customFields, values);
  const document: FormValuesDocument = { format: 1, formUuid: form.formUuid, formName: form.name, values, chosenRecipients: [...chosenRecipients], submittedAt: new Date().toISOString(), ...(Object.keys(texts).length > 0 ? { texts } : {}) };
  return { name: FORM_VALUES_FILE_NAME, blob: new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }) };
}

/**
 * Levels 3/4 with a process service: `submission.json` built here from the head the server answered
 * and the values (the same builder the server runs at levels 1/2), encrypted like the other files.
 */
export function submissionJsonFile(head: SubmissionJsonHead, form: Pick<PublicForm, 'customFields'>, values: Record<string, FieldValue>): UploadSource {
  const json = buildSubmissionJson(head, form.customFields, values);
  // Indented with a final newline, byte for byte what the server attaches at levels 1/2.
  return { name: SUBMISSION_JSON_FILE, blob: new Blob([`${JSON.stringify(json, null, 2)}\n`], { type: 'application/json' }) };
}

/** Levels 3/4: each text template filled in here, before sealing — the server never sees the values it would need. */
function filledTemplates(fields: readonly CustomField[], values: Record<string, FieldValue>): Record<string, string> {
  return Object.fromEntries(fields.filter((f) => f.type === 'textTemplate').map((f) => [f.name, fillTemplate(f.defaultValue, values, fields)]));
}

/** The values one line each, then the filled text templates (level 4: the encrypted message; the server never sees it). */
export function formValuesText(values: Record<string, FieldValue>, fields: readonly CustomField[] = []): string {
  const show = (v: FieldValue) => (typeof v === 'string' ? (v.startsWith('data:image/') ? '[signature]' : v) : v.map((x) => (typeof x === 'string' ? x : x.name)).join(', '));
  return [...Object.entries(values).map(([name, value]) => `${name}: ${show(value)}`), ...Object.values(filledTemplates(fields, values))].join('\n');
}

export interface FormSubmission {
  /** The public client (no session needed; a signed-in one for only-authenticated forms). */
  client: ApiClient;
  formId: string;
  form: PublicForm;
  body: FormSubmitBody & { values: Record<string, FieldValue> };
  files: readonly UploadSource[];
  /** Levels 3/4: the crypto Worker (browser) or service (Node). */
  crypto?: CryptoApi;
  /** Level 4: the subject inside the manifest. */
  encryptedSubject?: string;
  onProgress?: (progress: SendProgress) => void;
  /** Where the API is when not on the page's origin (Node tests). */
  backendUrl?: string;
}

/**
 * A form submission end to end. Levels 1/2: the values go to the server, which checks them.
 * Levels 3/4: the server gets no value at all; the draft's throwaway keys are stored, the files and
 * `form-values.json` (and, for a form with a process service, `submission.json`) are encrypted to
 * the pinned recipients' keys (level 4: the values also as the encrypted message). Throws the start's error (§8); the send's outcome is the result.
 */
export async function submitFormDelivery(input: FormSubmission): Promise<{ started: FormSubmitResponse; result: SendResult }> {
  const { form, body } = input;
  const encrypted = isE2eLevel(form.securityLevel);
  const started = await submitForm(input.client, input.formId, encrypted ? { ...body, values: {} } : body);
  const client = submitSessionClient(started.sessionToken, input.backendUrl ? { backendUrl: input.backendUrl } : {});
  if (!encrypted) {
    return { started, result: await sendDelivery({ client, draft: { deliveryUuid: started.deliveryUuid }, files: input.files, ...(input.onProgress ? { onProgress: input.onProgress } : {}) }) };
  }
  const crypto = input.crypto;
  if (!crypto || started.submitterUserUuid === null) throw new Error('An encrypted form needs the crypto service and a submitter account');
  const keys = await throwawaySubmitterKeys({ crypto, client, submitterUserUuid: started.submitterUserUuid, deliveryUuid: started.deliveryUuid });
  const pins = await pinsOfFormRecipients(crypto, form.e2eRecipients);
  const level4 = encryptsMessage(started.securityLevel);
  try {
    const result = await sendDelivery({
      client,
      draft: { deliveryUuid: started.deliveryUuid },
      files: [
        ...input.files,
        formValuesFile(form, body.values, body.chosenRecipients ?? []),
        ...(started.submissionJsonHead ? [submissionJsonFile(started.submissionJsonHead, form, body.values)] : []),
      ],
      e2e: { crypto, keys, pins },
      ...(level4 ? { encryptedMessage: { subject: input.encryptedSubject ?? form.name, body: formValuesText(body.values, form.customFields) } } : {}),
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    });
    return { started, result };
  } finally {
    // The throwaway keys are done with; a signed-in visitor's own keys in the Worker stay unlocked.
    await Promise.all([keys.encryption.handle, keys.signing.handle].map((handle) => crypto.releaseHandle({ handle }).catch(() => undefined)));
  }
}

/** The values document is small; a file of that name above this is not one (it stays a file to download). */
export const MAX_FORM_VALUES_BYTES = 1024 * 1024;

/**
 * The reading side of a level 3/4 form submission: the opened delivery's `form-values.json`,
 * decrypted in memory and parsed (the recipient's delivery view and the form owner's Submissions
 * tab). Undefined when the delivery carries no such file; throws when it does not decrypt or parse.
 */
export async function readFormValues(input: { delivery: OpenedE2eDelivery; crypto: CryptoApi; url: (fileId: string) => string; fetch?: typeof fetch; signal?: AbortSignal }): Promise<FormValuesDocument | undefined> {
  const file = formValuesFileOf(input.delivery);
  if (!file) return undefined;
  const blob = await downloadE2eFile({
    delivery: input.delivery,
    fileId: file.fileId,
    crypto: input.crypto,
    url: input.url(file.fileId),
    ...(input.fetch ? { fetch: input.fetch } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return FormValuesDocumentSchema.parse(JSON.parse(utf8Decode(new Uint8Array(await blob.arrayBuffer()))));
}

/** The opened delivery's values document, if it has one of a plausible size. */
export const formValuesFileOf = (delivery: OpenedE2eDelivery) => delivery.files.find((f) => f.name === FORM_VALUES_FILE_NAME && f.size <= MAX_FORM_VALUES_BYTES);
