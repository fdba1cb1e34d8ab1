import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import type { TestServer } from '@tests/support/server';
import { call, type Session } from './core-helpers';

/**
 * A plain data room as the web client drives it (announce → PUT each part with its SHA-256 →
 * commit), for tests whose subject is elsewhere (backup, S3 store). Throws on any unexpected status.
 */

const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function expectJson<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${response.url}: expected ${status}, got ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export const roomCall = async <T>(server: TestServer, session: Session, method: string, path: string, status: number, body?: unknown) =>
  expectJson<T>(await call(server, session, method, api(path), body), status);

export const createPlainRoom = (server: TestServer, session: Session, name: string) => roomCall<Room>(server, session, 'POST', ROOM_PATHS.rooms, 201, { name });

/** Uploads `bytes` as `name` (replace: as the next version of the file of that name); answers the committed file. */
export async function uploadRoomFile(
  server: TestServer,
  session: Session,
  roomUuid: string,
  input: { name: string; bytes: Uint8Array; partSize: number; folderUuid?: string; replace?: boolean; mimeType?: string },
): Promise<RoomUploadFile> {
  const commit = await announceRoomFile(server, session, roomUuid, input);
  return expectJson<RoomUploadFile>(await commit(), 200);
}

/**
 * Announces and sends every part; answers the commit to call (with If-Match: an editor's save,
 * shared/contract/room-preview.ts), so tests can race two commits or look at a refusal.
 */
export async function announceRoomFile(
  server: TestServer,
  session: Session,
  roomUuid: string,
  input: { name: string; bytes: Uint8Array; partSize: number; folderUuid?: string; replace?: boolean; mimeType?: string },
): Promise<(ifMatch?: string) => Promise<Response>> {
  const body = { name: input.name, size: input.bytes.length, mimeType: input.mimeType ?? 'application/octet-stream', ...(input.folderUuid ? { folderUuid: input.folderUuid } : {}), ...(input.replace ? { replace: true } : {}) };
  const file = await roomCall<RoomUploadFile>(server, session, 'POST', ROOM_PATHS.files(roomUuid), 201, body);
  for (let i = 0; i < file.partCount; i++) {
    const part = input.bytes.subarray(i * input.partSize, (i + 1) * input.partSize);
    const put = await fetch(`${server.url}${api(ROOM_PATHS.filePart(roomUuid, file.uuid, i))}`, {
      method: 'PUT',
      headers: { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
      body: new Blob([Uint8Array.from(part)]),
    });
    await expectJson(put, 200);
  }
  return (ifMatch) => call(server, session, 'POST', api(ROOM_PATHS.fileCommit(roomUuid, file.uuid)), undefined, ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } });
}

/** GET of an API path with the session's cookie (and a Range header): the raw response. */
export const roomGet = (server: TestServer, session: Session, path: string, range?: string) =>
  fetch(`${server.url}${api(path)}`, { headers: { cookie: session.cookie, ...(range ? { range } : {}) } });

/** The whole body of a 200 (or 206 with a range) as bytes; throws on another status. */
export async function roomBytes(server: TestServer, session: Session, path: string, range?: string): Promise<Uint8Array> {
  const response = await roomGet(server, session, path, range);
  if (response.status !== (range ? 206 : 200)) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return new Uint8Array(await response.arrayBuffer());
}
