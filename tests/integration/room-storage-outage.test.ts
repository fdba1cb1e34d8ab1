import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { call as apiCall } from '@shared/api/call';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { ROOM_ENDPOINTS } from '@shared/contract/endpoints/rooms';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { DEFAULT_RETRY } from '@shared/transfer';
import { sendRoomFile } from '@shared/transfer/room-upload';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createPlainRoom, roomBytes } from './room-upload-helpers';
import { createE2eRoom, openRoomKey, readE2eFolder, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Issue 29 §3 for data rooms: the local blob folder goes away during a room upload (plain and E2E)
 * through the web client's room transfer (`sendRoomFile`, shared/transfer/room-upload.ts). The
 * parts pause ("waiting for the server") and go on by themselves, the commit — which reads every
 * part from the store — is retried the same way, and the file lands bit-exact. A short retry window
 * (the real clock) so the pause comes within seconds.
 */

const PART_SIZE = 1024;
// The server's Retry-After (5 s) capped as well: honouring it is the engine's unit tests' business
// (shared/transfer/retry.test.ts); here it only made each of the four outages last seconds longer.
const SHORT_WINDOW = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 200, retryWindowMs: 800, pausedIntervalMs: 500, maxRetryAfterMs: 500 };
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: TestServer;
let owner: E2eActor;
let blobs: string;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  blobs = join(server.dataDir, 'blobs');
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@room-outage.test' });
  owner = await e2eActor(server, await signIn(server, 'owner@room-outage.test', 'Good-Passw0rd'));
  await giveSecuPass(owner, 'owner-SecuPass-room-outage-Basalt-4');
}, 240_000);
afterAll(() => server?.close());

/** The blob folder away until the upload says it waits; then back after a moment. Resolves once back. */
function outage() {
  let waitingSeen = false;
  const away = rename(blobs, `${blobs}.away`);
  const back = (async () => {
    await away;
    await expect.poll(() => waitingSeen, { timeout: 15_000, interval: 50 }).toBe(true);
    await delay(700);
    await rename(`${blobs}.away`, blobs);
  })();
  return { away, back, sawWaiting: () => void (waitingSeen = true) };
}

describe('room uploads during a blob-store outage', () => {
  it('plain room: the parts and then the commit wait for the server and finish by themselves, bit-exact', async () => {
    const room = await createPlainRoom(server, owner.session, 'Outage room');
    const bytes = new Uint8Array(testFileBytes(30 * PART_SIZE + 7));
    const announced = await apiCall(owner.client, ROOM_ENDPOINTS.createFile, { params: { roomUuid: room.uuid }, body: { name: 'outage.bin', size: bytes.length, mimeType: 'application/octet-stream', folderUuid: null } });
    const waiting: boolean[] = [];
    const outages: Array<ReturnType<typeof outage>> = [];
    let parts = 0;
    const part = (i: number) => bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE);
    const committed = await sendRoomFile({
      client: owner.client,
      roomUuid: room.uuid,
      fileUuid: announced.uuid,
      indices: Array.from({ length: announced.partCount }, (_, i) => i),
      prepare: async (i) => ({ body: new Blob([Uint8Array.from(part(i))]), size: part(i).length, sha256: sha256Hex(part(i)) }),
      retry: SHORT_WINDOW,
      onBytes: () => {
        parts += 1;
        // Once during the parts, once after the last one (before the commit).
        if (parts === 8 || parts === announced.partCount) outages.push(outage());
      },
      onWaiting: (now) => {
        waiting.push(now);
        if (now) outages.at(-1)?.sawWaiting();
      },
    });
    await Promise.all(outages.map((o) => o.back));
    expect(outages).toHaveLength(2);
    expect(waiting).toEqual([true, false, true, false]);
    expect(committed.state).toBe('complete');
    expect(sha256Hex(await roomBytes(server, owner.session, ROOM_PATHS.fileContent(room.uuid, announced.uuid)))).toBe(sha256Hex(bytes));
  }, 60_000);

  it('E2E room: the ciphertext parts and the E2E commit with its signed metadata wait for the server and finish by themselves', async () => {
    const { room } = await createE2eRoom(server, owner, 'Outage E2E room');
    const { handle } = await openRoomKey(server, owner, room.uuid);
    const bytes = new Uint8Array(testFileBytes(20 * PART_SIZE));
    const waiting: boolean[] = [];
    const outages: Array<ReturnType<typeof outage>> = [];
    let parts = 0;
    const { file } = await uploadE2eFile(server, owner, room.uuid, handle, {
      name: 'sealed-outage.bin',
      bytes,
      partSize: PART_SIZE,
      metadataAtCommit: true,
      engine: {
        retry: SHORT_WINDOW,
        onBytes: () => {
          if (++parts === 5) outages.push(outage());
        },
        onWaiting: (now) => {
          waiting.push(now);
          if (now) outages.at(-1)?.sawWaiting();
        },
        // The store away right before the E2E commit (it reads every part): the commit waits it out.
        beforeCommit: async () => {
          await Promise.all(outages.map((o) => o.back));
          const o = outage();
          outages.push(o);
          await o.away;
        },
      },
    });
    await Promise.all(outages.map((o) => o.back));
    expect(outages).toHaveLength(2);
    expect(waiting).toEqual([true, false, true, false]);
    expect(file?.state).toBe('complete');
    // Listed with its verified signed metadata; downloaded and decrypted, it is the file.
    const listed = await readE2eFolder(server, owner, room.uuid);
    expect(sha256Hex(listed.files.get('sealed-outage.bin')!.bytes)).toBe(sha256Hex(bytes));
  }, 60_000);

  it('a raw part PUT during the outage answers 503 ServiceUnavailableException (part storage) with Retry-After', async () => {
    const room = await createPlainRoom(server, owner.session, 'Raw outage room');
    const bytes = new Uint8Array(testFileBytes(PART_SIZE));
    const announced = await apiCall(owner.client, ROOM_ENDPOINTS.createFile, { params: { roomUuid: room.uuid }, body: { name: 'raw.bin', size: bytes.length, mimeType: 'application/octet-stream', folderUuid: null } });
    await rename(blobs, `${blobs}.away`);
    try {
      const put = await owner.fetch(`${server.url}/api/2${ROOM_PATHS.filePart(room.uuid, announced.uuid, 0)}`, {
        method: 'PUT',
        headers: { [ANTI_CSRF_HEADER]: owner.session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Hex(bytes) },
        body: new Blob([bytes]),
      });
      expect(put.headers.get('retry-after')).toBe('5');
      expect((await expectBackendError(put, 503, 'ServiceUnavailableException')).metadata).toMatchObject({ part: 'storage' });
    } finally {
      await rename(`${blobs}.away`, blobs);
    }
  });
});
