import { z } from 'zod';

/**
 * The earlier versions of an E2E room file (issue 15; shared/crypto/README.md "7. Data rooms",
 * server/README "End-to-end encrypted rooms"): per version the sealed file key and signed metadata
 * kept when a newer version replaced it. The server holds no plaintext; the browser opens and
 * verifies each row (bound to room, file and that version number) as it does the current one.
 * Who may call it: OWNER and EDITOR (SPEC §6 "view and download file versions"), as the plain
 * versions call; the bytes of a version come from the plain version download (ciphertext).
 */
export const E2eFileVersionSchema = z
  .object({
    /** The version's uuid (the plain version download takes it). */
    uuid: z.string(),
    version: z.number().int(),
    /** When this content was uploaded, and when a newer version replaced it (ms). */
    createdAt: z.number(),
    replacedAt: z.number(),
    /** Ciphertext bytes (what the download sends) and plaintext bytes (as signed). */
    size: z.number().int(),
    plaintextSize: z.number().int(),
    wrappedFileKey: z.string(),
    metadata: z.string(),
    /** As in the current-file answer (E2eFileKeys): the server's uploader and whose key signed. */
    uploaderUuid: z.string().nullable(),
    signerUuid: z.string().nullable(),
    /**
     * Issue 32: the uploader's display name, as the plain versions list answers it (absent or null:
     * none known). The server's word: the browser shows it beside the signed address, never instead.
     */
    uploadedByName: z.string().nullable().optional(),
  })
  .meta({ id: 'E2eFileVersion' });
export type E2eFileVersion = z.infer<typeof E2eFileVersionSchema>;

/** Newest first; the current content is not in it (its extras come with the folder's file keys). */
export const E2eFileVersionListSchema = z.object({ versions: z.array(E2eFileVersionSchema) }).meta({ id: 'E2eFileVersionList' });
export type E2eFileVersionList = z.infer<typeof E2eFileVersionListSchema>;

export const ROOM_E2E_VERSION_PATHS = {
  versions: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/e2e/files/${fileUuid}/versions`,
} as const;
