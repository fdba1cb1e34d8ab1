import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every regular file below `dir` (recursive): what "at rest" tests scan. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * What every test file's content starts with: plain text, so the bytes can never look like a program.
 * The server types a plain upload from its first bytes (server/uploads/content-type.ts, `file-type`)
 * and refuses the blocked types with 400 `blockedContent`; every blocked type `file-type` knows has
 * its signature at offset 0 — "MZ" (exe), "PK" (jar), "REGEDIT4"/a UTF-16 BOM (reg), the shortcut
 * header 4C 00 00 00 (lnk) — so plain random bytes fail once in 65 536 uploads ("MZ") while these
 * never do. Pinned by tests/support/files.test.ts (unit project).
 */
export const TEST_FILE_PREFIX = 'test file\n';

/**
 * `n` random bytes for the content of an uploaded plain file (deliveries of levels 1/2, plain rooms,
 * forms, submit boxes, folder-link drops, S3, benches): the text prefix `TEST_FILE_PREFIX` (cut to `n`
 * when shorter), then random bytes. Keys, nonces, tokens and the plaintext of E2E files (encrypted
 * before upload, never typed by the server) keep `randomBytes`.
 */
export function testFileBytes(n: number) {
  const bytes = randomBytes(n);
  bytes.write(TEST_FILE_PREFIX.slice(0, n), 0, 'latin1');
  return bytes;
}
