import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomFileParts, RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS } from '@shared/contract/rooms';
import type { TestServer } from '@tests/support/server';
import { expect } from 'vitest';
import type { Session } from './core-helpers';
import { roomBytes, roomCall } from './room-upload-helpers';
import { testFileBytes } from '@tests/support/files';

/** The backup command (src/server/backup.ts) as a child process, and a room upload left half done, for backup*.test.ts. */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Runs the backup command with a server's environment; resolves with its exit code and output.
 * `npm`: as the README shows it (`npm run backup -- <args>`), else straight through tsx (faster).
 */
export async function backupCommand(args: string[], env: Record<string, string>, options: { npm?: boolean } = {}): Promise<{ code: number | null; out: string; err: string }> {
  const [command, commandArgs] = options.npm ? ['npm', ['run', '--silent', 'backup', '--', ...args]] : [process.execPath, ['--import', 'tsx', 'src/server/backup.ts', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, out, err };
}

export interface UploadInProgress {
  roomUuid: string;
  fileUuid: string;
  bytes: Uint8Array;
  partSize: number;
  /** The parts stored before the backup. */
  stored: number[];
}

async function putPart(server: TestServer, session: Session, upload: UploadInProgress, index: number): Promise<void> {
  const part = upload.bytes.subarray(index * upload.partSize, (index + 1) * upload.partSize);
  const response = await fetch(`${server.url}/api/2${ROOM_PATHS.filePart(upload.roomUuid, upload.fileUuid, index)}`, {
    method: 'PUT',
    headers: { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
    body: new Blob([Uint8Array.from(part)]),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Announces a file of `partCount` parts in a plain room (replace: the next version of the file of that name) and stores only the parts `stored` (not committed). */
export async function startRoomUpload(
  server: TestServer,
  session: Session,
  roomUuid: string,
  input: { name: string; partSize: number; partCount: number; stored: number[]; replace?: boolean },
): Promise<UploadInProgress> {
  const bytes = new Uint8Array(testFileBytes((input.partCount - 1) * input.partSize + 13));
  const body = { name: input.name, size: bytes.length, mimeType: 'application/octet-stream', ...(input.replace ? { replace: true } : {}) };
  const file = await roomCall<RoomUploadFile>(server, session, 'POST', ROOM_PATHS.files(roomUuid), 201, body);
  expect(file.partCount).toBe(input.partCount);
  const upload = { roomUuid, fileUuid: file.uuid, bytes, partSize: input.partSize, stored: input.stored };
  for (const index of input.stored) await putPart(server, session, upload, index);
  return upload;
}

/** On the restored server: the upload still lists the parts stored before the backup; the rest goes up, the commit holds, the file downloads bit-exact. */
export async function resumeRoomUpload(server: TestServer, session: Session, upload: UploadInProgress): Promise<void> {
  const listed = await roomCall<RoomFileParts>(server, session, 'GET', ROOM_PATHS.fileParts(upload.roomUuid, upload.fileUuid), 200);
  expect(listed.state).toBe('uploading');
  expect(listed.parts.map((p) => p.index)).toEqual(upload.stored);
  for (const part of listed.parts) expect(part.sha256).toBe(sha256(upload.bytes.subarray(part.index * upload.partSize, (part.index + 1) * upload.partSize)));
  for (let index = 0; index < listed.partCount; index++) if (!upload.stored.includes(index)) await putPart(server, session, upload, index);
  // A new version commits into the file it replaces: the answer names that file.
  const committed = await roomCall<RoomUploadFile>(server, session, 'POST', ROOM_PATHS.fileCommit(upload.roomUuid, upload.fileUuid), 200);
  expect(sha256(await roomBytes(server, session, ROOM_PATHS.fileContent(upload.roomUuid, committed.uuid))), 'resumed upload').toBe(sha256(upload.bytes));
}
