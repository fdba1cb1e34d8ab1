import { z } from 'zod';

/**
 * Preview and edit of room files (issue 31 §3; SPEC §4 "save conflict during preview edit";
 * server/README "Preview and editing"). The preview answers a strong ETag of the content it served
 * (the stored bytes' SHA-256: ciphertext in a Secure room); an edit is saved as the file's next
 * version by the ordinary replace upload whose commit carries `If-Match` with that ETag. When
 * somebody saved in between, the commit answers 412 `ConflictException` with `reason: saveConflict`
 * (and the current ETag), and nothing changes.
 */

/** The ETag of stored content: its SHA-256, quoted (RFC 9110 strong validator). */
export const contentEtag = (sha256: string) => `"${sha256}"`;

/** The SHA-256 values an If-Match names (`W/` and quotes dropped); `*` stands for any. */
export function ifMatchValues(header: string): string[] {
  return header
    .split(',')
    .map((v) => v.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1'))
    .filter((v) => v.length > 0);
}

/** Optional `If-Match` on a commit: the version the editor loaded. */
export const IfMatchHeadersSchema = z.looseObject({ 'if-match': z.string().max(1000).optional() });

/** metadata.reason of the 412 a save answers when a newer version came in between. */
export const SAVE_CONFLICT_REASON = 'saveConflict';

/** Largest text the editor opens (bytes): larger text files are shown, not edited. */
export const EDITABLE_MAX_BYTES = 2 * 1024 * 1024;

export const ROOM_PREVIEW_PATHS = {
  /** A Secure room file's ciphertext for the browser to decrypt and show (every role, PREVIEWER too). */
  e2e: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/e2e/files/${fileUuid}/preview`,
} as const;
