import { z } from 'zod';
import { E2E_LABEL_CHANGES } from './rooms-e2e';

/**
 * A Secure room folder's classification and status (issue 31 §1; shared/crypto/room-folder-labels.ts,
 * README section 7 "Folder labels"): the browser seals the values under the room key and signs the
 * sealed string; the server stores both with who signed, logs the SPEC §4 activity types without the
 * values, and hands the records to members, who verify them against the signer's pinned key.
 */
const Uuid = z.string().uuid();
/** "r1." ‖ base64url(iv ‖ ciphertext ‖ tag): the values are a few dozen bytes. */
const SealedLabels = z.string().min(3 + 38).max(1000).regex(/^r1\.[A-Za-z0-9_-]+$/, 'a sealed room string (r1.…) expected');
/** "<signerKeyId>.<base64url P1363 signature>". */
const Signature = z.string().min(3).max(400).regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'a key id, ".", and a base64url signature expected');

export const E2eFolderParamsSchema = z.object({ roomUuid: Uuid, folderUuid: Uuid }).strict();

/** PUT …/e2e/folders/{folder}/labels: the sealed record, its signature and what changed (logged as these SPEC §4 types). */
export const PutE2eFolderLabelsBodySchema = z
  .object({
    labels: SealedLabels,
    signature: Signature,
    labelChanges: z.array(z.enum(E2E_LABEL_CHANGES)).min(1).max(2),
  })
  .strict()
  .refine((b) => b.labelChanges.filter((c) => c.startsWith('classification')).length <= 1 && b.labelChanges.filter((c) => c.startsWith('status')).length <= 1, {
    path: ['labelChanges'],
    message: 'At most one classification and one status change',
  })
  .meta({ id: 'PutE2eFolderLabelsBody' });
export type PutE2eFolderLabelsBody = z.infer<typeof PutE2eFolderLabelsBodySchema>;

export const E2eFolderLabelsQuerySchema = z.object({ parentUuid: Uuid.optional() }).strict();

export const E2eFolderLabelsSchema = z
  .object({
    uuid: Uuid,
    labels: z.string(),
    signature: z.string(),
    /** Who signed (her keys are among the room state's `signers`); null: her account is gone (the reader refuses the record). */
    signerUuid: Uuid.nullable(),
  })
  .meta({ id: 'E2eFolderLabels' });
export type E2eFolderLabelsWire = z.infer<typeof E2eFolderLabelsSchema>;

/** GET …/e2e/folder-labels: the records of the live folders directly in the room's top level or in `parentUuid` (folders without one are left out). */
export const E2eFolderLabelsListSchema = z.object({ folders: z.array(E2eFolderLabelsSchema) }).meta({ id: 'E2eFolderLabelsList' });
export type E2eFolderLabelsList = z.infer<typeof E2eFolderLabelsListSchema>;
