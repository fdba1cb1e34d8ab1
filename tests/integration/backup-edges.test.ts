import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { ROOM_OPS_PATHS, type RoomFileVersionList } from '@shared/contract/room-ops';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { sendDelivery } from '@shared/transfer';
import { ROOM_UPLOAD_MAX_AGE_MS, sweepRoomFiles } from '@server/rooms/plain/sweep';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupCommand, resumeRoomUpload, sha256, startRoomUpload } from './backup-helpers';
import { createUserAsAdmin, signIn, signInAdmin } from './core-helpers';
import { e2eActor, type E2eActor } from './e2e-helpers';
import { createPlainRoom, roomBytes, roomCall, uploadRoomFile } from './room-upload-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * The two edges of `npm run backup` (README "Backup and restore") that backup.test.ts leaves out,
 * on SQLite with the local blob folder, small files:
 * - a data-room upload in progress at backup time (announced, some parts stored, not committed):
 *   after the restore it resumes and commits bit-exact (a new version of a file too, the restored
 *   content becoming its earlier version), and one nobody resumes is removed with its
 *   bytes by the room sweep like any abandoned upload;
 * - a blob the database points to but the blob store lacks (deleted by hand): `create` exits 1
 *   naming the blob and its item, `check` names it, `restore` refuses and writes nothing;
 * - servers with KUVERT_SECRET_KEY: the backup does not hold the key, and `restore` refuses without
 *   the same key (none, or another one) and writes nothing (issue 29 §2).
 */

const PART_SIZE = 1024;
const CONFIG = { uploadPartSize: PART_SIZE };
const exists = (path: string) => access(path).then(() => true, () => false);

describe.skipIf(Boolean(process.env.KUVERT_TEST_DATABASE_URL))('backup edges (SQLite, local blob folder)', () => {
  let source: TestServer;
  let restored: TestServer | undefined;
  let work: string;
  let alice: E2eActor;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kuvert-backup-edges-'));
    source = await startTestServer({ config: CONFIG });
    await createUserAsAdmin(source, await signInAdmin(source), { email: 'alice@example.test' });
    alice = await e2eActor(source, await signIn(source, 'alice@example.test', 'Good-Passw0rd'));
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('an upload in progress at backup time resumes on the restored server and commits bit-exact; an abandoned one is swept with its bytes', { timeout: 60_000 }, async () => {
    const room = await createPlainRoom(source, alice.session, 'Half-done uploads');
    const resumed = await startRoomUpload(source, alice.session, room.uuid, { name: 'resumed.bin', partSize: PART_SIZE, partCount: 4, stored: [0, 2] });
    const abandoned = await startRoomUpload(source, alice.session, room.uuid, { name: 'abandoned.bin', partSize: PART_SIZE, partCount: 2, stored: [0] });
    // And the next version of a committed file, half uploaded.
    const firstBytes = new Uint8Array(testFileBytes(PART_SIZE + 9));
    const first = await uploadRoomFile(source, alice.session, room.uuid, { name: 'contract.bin', bytes: firstBytes, partSize: PART_SIZE });
    const nextVersion = await startRoomUpload(source, alice.session, room.uuid, { name: 'contract.bin', partSize: PART_SIZE, partCount: 3, stored: [1], replace: true });

    // The documented command line, through npm.
    const backupDir = join(work, 'backup-uploads');
    const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir }, { npm: true });
    expect(created, created.err).toMatchObject({ code: 0 });
    expect(created.out).toContain('OK (6 blob(s)');
    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8')) as { blobs: Array<{ key: string; item: string }> };
    const inProgress = manifest.blobs.filter((b) => b.item.endsWith('upload in progress')).map((b) => b.key);
    const keys = [`${abandoned.fileUuid}/0`, `${resumed.fileUuid}/0`, `${resumed.fileUuid}/2`, `${nextVersion.fileUuid}/1`];
    expect(inProgress.sort()).toEqual(keys.map((key) => `rooms/${room.uuid}/${key}`).sort());
    expect((await backupCommand(['check', backupDir], {}, { npm: true })).code).toBe(0);

    const target = join(work, 'restored-uploads');
    const restoredRun = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target }, { npm: true });
    expect(restoredRun, restoredRun.err).toMatchObject({ code: 0 });
    restored = await startTestServer({ reuse: { dataDir: target, databaseSchema: undefined }, config: CONFIG });
    const session = await signIn(restored, 'alice@example.test', 'Good-Passw0rd');
    await resumeRoomUpload(restored, session, resumed);
    // The next version commits over the restored file, which becomes its earlier version.
    await resumeRoomUpload(restored, session, nextVersion);
    const { versions } = await roomCall<RoomFileVersionList>(restored, session, 'GET', ROOM_OPS_PATHS.versions(room.uuid, first.uuid), 200);
    expect(versions).toHaveLength(2);
    const earlier = versions.find((v) => !v.current)!;
    expect(sha256(await roomBytes(restored, session, ROOM_OPS_PATHS.versionContent(room.uuid, first.uuid, earlier.uuid))), 'earlier version').toBe(sha256(firstBytes));

    // Nobody resumes the other: the sweep removes its row and its restored part after the usual week, no orphan bytes left.
    const abandonedDir = join(target, 'blobs', 'rooms', room.uuid, abandoned.fileUuid);
    expect(await exists(join(abandonedDir, '0'))).toBe(true);
    expect(await sweepRoomFiles(restored.app, Date.now() + ROOM_UPLOAD_MAX_AGE_MS + 60_000)).toMatchObject({ uploads: 1 });
    expect(await exists(abandonedDir)).toBe(false);
    expect(await restored.app.db.selectFrom('room_files').select('uuid').where('uuid', '=', abandoned.fileUuid).executeTakeFirst()).toBeUndefined();
    expect(sha256(await roomBytes(restored, session, ROOM_PATHS.fileContent(room.uuid, resumed.fileUuid))), 'the committed file stays').toBe(sha256(resumed.bytes));
    await restored.close();
    restored = undefined;
  });

  it('a blob missing from the blob store at backup time: create exits 1 naming the blob and its item, check names it, restore refuses and writes nothing', { timeout: 60_000 }, async () => {
    const bytes = new Uint8Array(testFileBytes(2 * PART_SIZE + 5));
    const sent = await sendDelivery({
      client: alice.client,
      draft: { recipients: ['bob@example.test'], subject: 'Lost part', body: '', securityLevel: SECURITY_LEVELS.LEVEL_1 },
      files: [{ name: 'lost.bin', blob: new Blob([bytes]), mimeType: 'application/octet-stream' }],
    });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    const { deliveryUuid } = sent.delivery;
    const fileId = sent.delivery.files[0]!.fileId;
    const room = await createPlainRoom(source, alice.session, 'Lost file');
    const file = await uploadRoomFile(source, alice.session, room.uuid, { name: 'lost-room.bin', bytes: new Uint8Array(testFileBytes(PART_SIZE + 1)), partSize: PART_SIZE });
    // Deleted by hand from the live blob folder; the database still points to both.
    const lostPart = `deliveries/${deliveryUuid}/${fileId}/1`;
    const lostRoomPart = `rooms/${room.uuid}/${file.uuid}/1`;
    for (const key of [lostPart, lostRoomPart]) await rm(join(source.dataDir, 'blobs', ...key.split('/')));
    // The live server cannot hand the delivery out whole any more (the download breaks off at the lost part).
    await expect(alice.fetch(deliveryContentUrl(deliveryUuid, fileId, null, source.url)).then((r) => r.arrayBuffer())).rejects.toThrow();

    const backupDir = join(work, 'backup-missing');
    const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir });
    expect(created.code).toBe(1);
    expect(created.err).toMatch(/: 2 problem\(s\)/);
    expect(created.err).toContain(`missing in the blob store: ${lostPart} (delivery ${deliveryUuid}, file ${fileId})`);
    expect(created.err).toContain(`missing in the blob store: ${lostRoomPart} (room ${room.uuid}, file ${file.uuid})`);
    // No empty stand-in in the backup.
    expect(await exists(join(backupDir, 'blobs', ...lostPart.split('/')))).toBe(false);

    const checked = await backupCommand(['check', backupDir], {});
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(`missing blob, already missing from the blob store at backup time: ${lostPart} (delivery ${deliveryUuid}, file ${fileId})`);
    expect(checked.err).toContain(`missing blob, already missing from the blob store at backup time: ${lostRoomPart} (room ${room.uuid}, file ${file.uuid})`);
    expect(checked.err.match(/missing blob/g)).toHaveLength(2);

    const target = join(work, 'restored-missing');
    const refused = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the backup has problems; nothing restored');
    expect(refused.err).toContain(lostRoomPart);
    expect(await readdir(target).catch(() => [])).toEqual([]);
  });

  it('made with KUVERT_SECRET_KEY: the backup holds no key; restore refuses without it or with another one, writing nothing, and restores with it', { timeout: 60_000 }, async () => {
    const secretKey = randomBytes(32).toString('base64');
    const keyed = await startTestServer({ config: { ...CONFIG, secretKey } });
    const backupDir = join(work, 'backup-keyed');
    try {
      const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: keyed.dataDir, KUVERT_SECRET_KEY: secretKey });
      expect(created, created.err).toMatchObject({ code: 0 });
    } finally {
      await keyed.close();
    }
    expect(await readdir(backupDir)).not.toContain('secret.key');
    const target = join(work, 'restored-keyed');
    const without = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target });
    expect(without.code).toBe(1);
    expect(without.err).toContain('the backup was made by servers with KUVERT_SECRET_KEY, which a backup never holds; set the same KUVERT_SECRET_KEY');
    expect(await readdir(target).catch(() => [])).toEqual([]);
    const other = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target, KUVERT_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(other.err).toContain('KUVERT_SECRET_KEY is not the key the backed-up servers used');
    expect(await readdir(target).catch(() => [])).toEqual([]);
    const right = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target, KUVERT_SECRET_KEY: secretKey });
    expect(right, right.err).toMatchObject({ code: 0 });
  });
});
