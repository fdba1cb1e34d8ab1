import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import { ROOM_PATHS, type RoomFolder } from '@shared/contract/rooms';
import { startS3TestServer, type S3TestServer } from '@server/storage/s3-test-server';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { createPlainRoom, roomBytes, roomCall, uploadRoomFile } from './room-upload-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Data rooms on the S3 blob store (s3rver, the S3 HTTP API, on a random loopback port): a plain
 * room's file goes up in parts that are objects in the bucket, comes back bit-exact whole and as
 * a Range across parts, inside a folder's ZIP; purged from the trash, its objects are gone from
 * the bucket. Nothing lands in the local blob folder. (Deliveries on S3: s3-storage.test.ts.)
 */

const PART_SIZE = 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: S3TestServer;
let server: TestServer;
let owner: Session;

beforeAll(async () => {
  s3 = await startS3TestServer();
  server = await startTestServer({
    config: { s3Endpoint: s3.endpoint, s3Bucket: s3.bucket, s3AccessKeyId: s3.env.S3_ACCESS_KEY_ID, s3SecretAccessKey: s3.env.S3_SECRET_ACCESS_KEY, s3ForcePathStyle: true, uploadPartSize: PART_SIZE },
  });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@s3-rooms.test' });
  owner = await signIn(server, 'owner@s3-rooms.test', 'Good-Passw0rd');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await s3?.close();
});

describe('plain data rooms on the S3 blob store', () => {
  it('upload into a folder: parts are objects in the bucket; download whole, a Range across parts and the folder ZIP are bit-exact; purge from the trash removes the objects', async () => {
    const room = await createPlainRoom(server, owner, 'Room on S3');
    const folder = await roomCall<RoomFolder>(server, owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name: 'Reports' });
    const bytes = new Uint8Array(testFileBytes(3 * PART_SIZE + 321));
    const file = await uploadRoomFile(server, owner, room.uuid, { name: 'figures.bin', bytes, partSize: PART_SIZE, folderUuid: folder.uuid });
    const prefix = `rooms/${room.uuid}/${file.uuid}/`;
    expect((await s3.objectKeys()).filter((key) => key.startsWith(prefix)).sort()).toEqual([0, 1, 2, 3].map((i) => `${prefix}${i}`));

    const content = ROOM_PATHS.fileContent(room.uuid, file.uuid);
    expect(sha256(await roomBytes(server, owner, content))).toBe(sha256(bytes));
    const ranged = await roomBytes(server, owner, content, `bytes=${PART_SIZE - 10}-${2 * PART_SIZE + 9}`);
    expect(Buffer.from(ranged).equals(Buffer.from(bytes.subarray(PART_SIZE - 10, 2 * PART_SIZE + 10)))).toBe(true);

    const zip = new AdmZip(Buffer.from(await roomBytes(server, owner, ROOM_OPS_PATHS.folderZip(room.uuid, folder.uuid))));
    const entry = zip.getEntries().find((e) => e.entryName.endsWith('figures.bin'));
    expect(entry, zip.getEntries().map((e) => e.entryName).join(', ')).toBeDefined();
    expect(sha256(entry!.getData())).toBe(sha256(bytes));

    await roomCall(server, owner, 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid), 204);
    // In the trash the bytes stay (the file can be restored); purged, they go from the bucket.
    expect((await s3.objectKeys()).filter((key) => key.startsWith(prefix))).toHaveLength(4);
    await roomCall(server, owner, 'DELETE', ROOM_PATHS.trashItem(room.uuid, file.uuid), 204);
    expect((await s3.objectKeys()).filter((key) => key.startsWith(prefix))).toEqual([]);
    expect(await readdir(join(server.dataDir, 'blobs')).catch(() => [])).toEqual([]);
  });
});
