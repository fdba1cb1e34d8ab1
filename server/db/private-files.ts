import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/**
 * The data folder holds the database, the blobs (level 1/2 attachments in clear) and the local
 * mailbox (mails with download links): only the server's own account may read them. Folders
 * the server creates are 0700, files 0600 — set explicitly, whatever the umask — and a data
 * folder that already exists is tightened at start.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** mkdir -p with 0700 for every folder it creates, and the folder itself set to 0700. */
export async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(path, PRIVATE_DIR_MODE);
}

export function ensurePrivateDirSync(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(path, PRIVATE_DIR_MODE);
}

/** Sets 0600 on files that exist (e.g. what SQLite created with the process umask). */
export function restrictFilesSync(paths: readonly string[]): void {
  for (const path of paths) if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
}
