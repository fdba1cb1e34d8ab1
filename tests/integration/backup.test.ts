import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { downloadE2eFile, openE2eDelivery, sendDelivery } from '@shared/transfer';
import { startS3TestServer, type S3TestServer } from '@server/storage/s3-test-server';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_OPS_PATHS, type RoomFileVersionList } from '@shared/contract/room-ops';
import { ROOM_PATHS } from '@shared/contract/rooms';
import type { Form } from '@shared/contract/forms';
import type { FormBackgroundInfo } from '@shared/contract/form-layout';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { makePng } from '@tests/support/png';
import { backupCommand, resumeRoomUpload, sha256, startRoomUpload, type UploadInProgress } from './backup-helpers';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createPlainRoom, roomBytes, roomCall, uploadRoomFile } from './room-upload-helpers';
import { createE2eRoom, openRoomKey, readE2eFolder, uploadE2eFile } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * `npm run backup` (src/server/backup.ts) run as the real command: a running server with
 * deliveries of levels 1–4, a plain data room (a file with an earlier version, a file in the
 * trash), an E2E room file and a form's background image is backed up, the backup checked,
 * restored onto a new data folder, and a server started there hands out every file bit-exact
 * (a room upload in progress at backup time resumes there and commits bit-exact).
 * A blob taken out of the backup makes `check` fail naming it, and `restore` refuses.
 */

const RECORD_SIZE = 1024;
const PART_SIZE = 1024;

const sqliteOnly = Boolean(process.env.KUVERT_TEST_DATABASE_URL);
const SOURCE_CONFIG = { uploadPartSize: PART_SIZE, licenceActiveForms: 5 };

interface SeededRooms {
  roomUuid: string;
  current: { uuid: string; bytes: Uint8Array };
  earlier: Uint8Array;
  versionPrefix: string;
  trashed: { uuid: string; bytes: Uint8Array };
  e2e: { roomUuid: string; fileUuid: string; name: string; bytes: Uint8Array; ciphertextSha256: string; pending: { uuid: string; name: string; bytes: Uint8Array } };
  /** Announced, parts 0 and 2 of 3 stored, not committed when the backup runs. */
  uploading: UploadInProgress;
}

/** A plain room with a file of two versions, a file in the trash and an upload in progress; an E2E room with one file. */
async function seedRooms(server: TestServer, owner: E2eActor): Promise<SeededRooms> {
  const plain = await createPlainRoom(server, owner.session, 'Backed-up room');
  const earlier = new Uint8Array(testFileBytes(3 * PART_SIZE + 11));
  const later = new Uint8Array(testFileBytes(2 * PART_SIZE + 5));
  const first = await uploadRoomFile(server, owner.session, plain.uuid, { name: 'contract.bin', bytes: earlier, partSize: PART_SIZE });
  const current = await uploadRoomFile(server, owner.session, plain.uuid, { name: 'contract.bin', bytes: later, partSize: PART_SIZE, replace: true });
  expect(current.uuid).toBe(first.uuid);
  const trashedBytes = new Uint8Array(testFileBytes(PART_SIZE + 3));
  const trashed = await uploadRoomFile(server, owner.session, plain.uuid, { name: 'trashed.bin', bytes: trashedBytes, partSize: PART_SIZE });
  await roomCall(server, owner.session, 'DELETE', ROOM_PATHS.file(plain.uuid, trashed.uuid), 204);
  const versionRow = await server.app.db.selectFrom('room_file_versions').select('blob_prefix').executeTakeFirstOrThrow();
  const uploading = await startRoomUpload(server, owner.session, plain.uuid, { name: 'half-done.bin', partSize: PART_SIZE, partCount: 3, stored: [0, 2] });

  const { room: vault } = await createE2eRoom(server, owner, 'Backed-up vault');
  const { handle } = await openRoomKey(server, owner, vault.uuid);
  const e2eBytes = new Uint8Array(randomBytes(2 * PART_SIZE + 77));
  const { uuid: fileUuid } = await uploadE2eFile(server, owner, vault.uuid, handle, { name: 'sealed.bin', bytes: e2eBytes, partSize: PART_SIZE });
  const ciphertext = await roomBytes(server, owner.session, ROOM_PATHS.fileContent(vault.uuid, fileUuid));
  // Every part stored, the commit not sent yet when the backup runs.
  const pendingBytes = new Uint8Array(randomBytes(PART_SIZE + 21));
  const pending = await uploadE2eFile(server, owner, vault.uuid, handle, { name: 'pending.bin', bytes: pendingBytes, partSize: PART_SIZE, deferCommit: true });
  return {
    roomUuid: plain.uuid,
    current: { uuid: current.uuid, bytes: later },
    earlier,
    versionPrefix: versionRow.blob_prefix,
    trashed: { uuid: trashed.uuid, bytes: trashedBytes },
    e2e: { roomUuid: vault.uuid, fileUuid, name: 'sealed.bin', bytes: e2eBytes, ciphertextSha256: sha256(ciphertext), pending: { uuid: pending.uuid, name: 'pending.bin', bytes: pendingBytes } },
    uploading,
  };
}

async function expectRoomsRestored(server: TestServer, owner: E2eActor, seeded: SeededRooms): Promise<void> {
  const { roomUuid, current, earlier, trashed, e2e, uploading } = seeded;
  expect(sha256(await roomBytes(server, owner.session, ROOM_PATHS.fileContent(roomUuid, current.uuid))), 'room file').toBe(sha256(current.bytes));
  const { versions } = await roomCall<RoomFileVersionList>(server, owner.session, 'GET', ROOM_OPS_PATHS.versions(roomUuid, current.uuid), 200);
  const version = versions.find((v) => !v.current)!;
  expect(sha256(await roomBytes(server, owner.session, ROOM_OPS_PATHS.versionContent(roomUuid, current.uuid, version.uuid))), 'earlier version').toBe(sha256(earlier));
  await roomCall(server, owner.session, 'POST', ROOM_PATHS.trashRestore(roomUuid, trashed.uuid), 204);
  expect(sha256(await roomBytes(server, owner.session, ROOM_PATHS.fileContent(roomUuid, trashed.uuid))), 'file restored from the trash').toBe(sha256(trashed.bytes));
  // E2E: the same ciphertext, and the member's browser still decrypts and verifies it.
  expect(sha256(await roomBytes(server, owner.session, ROOM_PATHS.fileContent(e2e.roomUuid, e2e.fileUuid))), 'E2E ciphertext').toBe(e2e.ciphertextSha256);
  // The E2E upload whose commit had not come when the backup ran commits on the restored server.
  await roomCall(server, owner.session, 'POST', ROOM_PATHS.fileCommit(e2e.roomUuid, e2e.pending.uuid), 200);
  const read = await readE2eFolder(server, owner, e2e.roomUuid);
  expect(sha256(read.files.get(e2e.name)!.bytes), 'E2E plaintext').toBe(sha256(e2e.bytes));
  expect(sha256(read.files.get(e2e.pending.name)!.bytes), 'E2E upload committed after the restore').toBe(sha256(e2e.pending.bytes));
  // The upload in progress at backup time resumes where it stood (README: the parts received so far are backed up).
  await resumeRoomUpload(server, owner.session, uploading);
}

interface SeededForm {
  formUuid: string;
  png: Uint8Array;
  url: string;
}

async function seedForm(server: TestServer, owner: Session): Promise<SeededForm> {
  const created = await call(server, owner, 'POST', '/api/2/forms', { name: 'Backed-up form', url: 'backed-up', active: true, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['alice@example.test'] });
  expect(created.status, await created.clone().text()).toBe(201);
  const { formUuid } = (await created.json()) as Form;
  const png = new Uint8Array(makePng(24, 16));
  const put = await fetch(`${server.url}/api/2/forms/${formUuid}/background-image`, {
    method: 'PUT',
    headers: { cookie: owner.cookie, [ANTI_CSRF_HEADER]: owner.csrf, 'content-type': 'application/octet-stream' },
    body: Uint8Array.from(png),
  });
  expect(put.status, await put.clone().text()).toBe(200);
  const { backgroundImage } = (await put.json()) as FormBackgroundInfo;
  return { formUuid, png, url: backgroundImage!.url };
}

async function expectFormRestored(server: TestServer, form: SeededForm): Promise<void> {
  // Anonymous, as a visitor of the public form page.
  const response = await fetch(`${server.url}${form.url}`);
  expect(response.status, 'layout image').toBe(200);
  expect(sha256(new Uint8Array(await response.arrayBuffer())), 'layout image').toBe(sha256(form.png));
}

describe.skipIf(sqliteOnly)('backup and restore (SQLite, local blob folder)', () => {
  let source: TestServer;
  let restored: TestServer | undefined;
  let work: string;
  let alice: E2eActor;
  let bob: E2eActor;
  const sent: Array<{ level: number; deliveryUuid: string; fileId: string; bytes: Uint8Array }> = [];
  let room: SeededRooms;
  let form: SeededForm;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kuvert-backup-'));
    source = await startTestServer({ config: SOURCE_CONFIG });
    const admin = await signInAdmin(source);
    for (const email of ['alice@example.test', 'bob@example.test']) await createUserAsAdmin(source, admin, { email });
    await createUserAsAdmin(source, admin, { email: 'forms@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
    alice = await e2eActor(source, await signIn(source, 'alice@example.test', 'Good-Passw0rd'));
    bob = await e2eActor(source, await signIn(source, 'bob@example.test', 'Good-Passw0rd'));
    await giveSecuPass(alice, 'Alice-SecuPass-backup-Quartz-41');
    await giveSecuPass(bob, 'Bob-SecuPass-backup-Lantern-42');
    for (const level of [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2, SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4]) {
      const bytes = new Uint8Array(testFileBytes(3 * PART_SIZE + 100 + level));
      const e2e = level >= SECURITY_LEVELS.LEVEL_3;
      const result = await sendDelivery({
        client: alice.client,
        draft: { recipients: ['bob@example.test'], subject: `Backed up, level ${level}`, body: 'Keep this.', securityLevel: level },
        files: [{ name: `level-${level}.bin`, blob: new Blob([bytes]), mimeType: 'application/octet-stream' }],
        ...(e2e ? { e2e: e2eOf(alice, { recordSize: RECORD_SIZE }) } : {}),
      });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      const fileId = result.delivery.files.find((f) => f.name === `level-${level}.bin`)!.fileId;
      sent.push({ level, deliveryUuid: result.delivery.deliveryUuid, fileId, bytes });
    }
    room = await seedRooms(source, alice);
    form = await seedForm(source, await signIn(source, 'forms@example.test', 'Good-Passw0rd'));
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up the running server, checks the backup, restores it onto a new data folder: deliveries of levels 1–4, room files (current, earlier version, restored from the trash, E2E, uploads in progress resumed and committed, plain and E2E) and a form layout image download bit-exact', { timeout: 120_000 }, async () => {
    const backupDir = join(work, 'backup');
    const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir });
    expect(created, created.err).toMatchObject({ code: 0 });
    expect(created.out).toMatch(/^backup .*: OK \(\d+ blob\(s\), /);
    const checked = await backupCommand(['check', backupDir], {});
    expect(checked, checked.err).toMatchObject({ code: 0 });

    const target = join(work, 'restored');
    const restoredRun = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target });
    expect(restoredRun, restoredRun.err).toMatchObject({ code: 0 });
    // A second restore onto the same folder is refused (it would mix two installations).
    expect((await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target })).err).toMatch(/exists; restore into a new data folder/);

    restored = await startTestServer({ reuse: { dataDir: target, databaseSchema: undefined }, config: SOURCE_CONFIG });
    const aliceThere = await e2eActor(restored, await signIn(restored, 'alice@example.test', 'Good-Passw0rd'));
    // Bob's browser keeps its unlocked keys and pins; only the server is new.
    const bobThere = { ...(await e2eActor(restored, await signIn(restored, 'bob@example.test', 'Good-Passw0rd'))), crypto: bob.crypto, keys: bob.keys, pins: bob.pins };
    for (const { level, deliveryUuid, fileId, bytes } of sent) {
      const url = deliveryContentUrl(deliveryUuid, fileId, null, restored.url);
      if (level < SECURITY_LEVELS.LEVEL_3) {
        const response = await aliceThere.fetch(url);
        expect(response.status, `level ${level}`).toBe(200);
        expect(sha256(new Uint8Array(await response.arrayBuffer())), `level ${level}`).toBe(sha256(bytes));
      } else {
        const opened = await openE2eDelivery({ client: bobThere.client, deliveryUuid, e2e: e2eOf(bobThere) });
        const file = opened.files[0]!;
        const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: bobThere.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, restored.url), fetch: bobThere.fetch });
        expect(sha256(new Uint8Array(await blob.arrayBuffer())), `level ${level}`).toBe(sha256(bytes));
        await opened.close();
      }
    }
    await expectRoomsRestored(restored, { ...aliceThere, crypto: alice.crypto, keys: alice.keys, pins: alice.pins }, room);
    await expectFormRestored(restored, form);
  });

  it('check names a blob missing from the backup and restore refuses it', { timeout: 60_000 }, async () => {
    const backupDir = join(work, 'backup-damaged');
    expect((await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir })).code).toBe(0);
    const { deliveryUuid, fileId } = sent[0]!; // level 1: 4 parts of 1 KiB
    const missing = `deliveries/${deliveryUuid}/${fileId}/1`;
    // And one part of the room file's earlier version (its hash is the one the backup recorded).
    const missingRoomPart = `${room.versionPrefix}/2`;
    for (const key of [missing, missingRoomPart]) await rm(join(backupDir, 'blobs', ...key.split('/')));
    const checked = await backupCommand(['check', backupDir], {});
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(`missing blob: ${missing}`);
    expect(checked.err).toContain(`missing blob: ${missingRoomPart}`);
    expect(checked.err.match(/missing blob/g)).toHaveLength(2);
    const refused = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: join(work, 'never') });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the backup has problems; nothing restored');
    expect((await backupCommand(['check', join(work, 'nothing-here')], {})).err).toMatch(/no manifest\.json: not a finished Kuvert backup/);
  });
});

describe.skipIf(sqliteOnly)('backup and restore with the S3 blob store (one bucket into another)', () => {
  let from: S3TestServer;
  let to: S3TestServer;
  let source: TestServer;
  let restored: TestServer | undefined;
  let work: string;
  /** The delivery the first test backs up, whose part the second deletes. */
  let lost: { deliveryUuid: string; fileId: string } | undefined;
  const s3Config = (s3: S3TestServer) => ({ s3Endpoint: s3.endpoint, s3Bucket: s3.bucket, s3AccessKeyId: s3.env.S3_ACCESS_KEY_ID, s3SecretAccessKey: s3.env.S3_SECRET_ACCESS_KEY, s3ForcePathStyle: true, uploadPartSize: PART_SIZE });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kuvert-backup-s3-'));
    from = await startS3TestServer('kuvert-old');
    to = await startS3TestServer('kuvert-new');
    source = await startTestServer({ config: s3Config(from) });
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    await from?.close();
    await to?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('copies the parts out of the old bucket and into the new one; the restored server serves them bit-exact', { timeout: 120_000 }, async () => {
    const admin = await signInAdmin(source);
    await createUserAsAdmin(source, admin, { email: 'carol@example.test' });
    const carol = await e2eActor(source, await signIn(source, 'carol@example.test', 'Good-Passw0rd'));
    const bytes = new Uint8Array(testFileBytes(4 * PART_SIZE + 7));
    const result = await sendDelivery({
      client: carol.client,
      draft: { recipients: ['dave@example.test'], subject: 'From bucket to bucket', body: '', securityLevel: SECURITY_LEVELS.LEVEL_1 },
      files: [{ name: 'moved.bin', blob: new Blob([bytes]), mimeType: 'application/octet-stream' }],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const { deliveryUuid } = result.delivery;
    const fileId = result.delivery.files[0]!.fileId;

    const backupDir = join(work, 'backup');
    const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir, ...from.env });
    expect(created, created.err).toMatchObject({ code: 0 });
    expect(created.out).toContain('OK (5 blob(s)');
    const target = join(work, 'restored');
    const restoredRun = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target, ...to.env });
    expect(restoredRun, restoredRun.err).toMatchObject({ code: 0 });
    expect((await to.objectKeys()).filter((key) => key.startsWith(`deliveries/${deliveryUuid}/`))).toHaveLength(5);

    restored = await startTestServer({ reuse: { dataDir: target, databaseSchema: undefined }, config: s3Config(to) });
    const carolThere = await e2eActor(restored, await signIn(restored, 'carol@example.test', 'Good-Passw0rd'));
    const response = await carolThere.fetch(deliveryContentUrl(deliveryUuid, fileId, null, restored.url));
    expect(response.status).toBe(200);
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes));
    expect(await readdir(join(target, 'blobs')).catch(() => [])).toEqual([]);
    lost = { deliveryUuid, fileId };
  });

  it('an object deleted from the bucket behind the server is named by create (exit 1), and that backup fails check', { timeout: 60_000 }, async () => {
    const { deliveryUuid, fileId } = lost!;
    const key = `deliveries/${deliveryUuid}/${fileId}/3`;
    await source.app.blobs.delete(key); // as `aws s3 rm` would
    const backupDir = join(work, 'backup-missing');
    const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir, ...from.env });
    expect(created.code).toBe(1);
    expect(created.err).toContain(`missing in the blob store: ${key} (delivery ${deliveryUuid}, file ${fileId})`);
    expect(created.err.match(/missing in the blob store/g)).toHaveLength(1);
    const checked = await backupCommand(['check', backupDir], {});
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(`missing blob, already missing from the blob store at backup time: ${key}`);
  });

  it('a restore that fails on the blob store (a wrong bucket) writes no database, so the same command runs again once the bucket is right', { timeout: 60_000 }, async () => {
    const backupDir = join(work, 'backup'); // the first test's
    const target = join(work, 'restored-again');
    const wrong = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target, ...to.env, S3_BUCKET: 'no-such-bucket' });
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toContain('no-such-bucket');
    expect(await readdir(target)).not.toContain('kuvert.sqlite');
    const right = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target, ...to.env });
    expect(right, right.err).toMatchObject({ code: 0 });
    expect(await readdir(target)).toContain('kuvert.sqlite');
  });
});

const pgUrl = process.env.KUVERT_TEST_DATABASE_URL;

/**
 * The PostgreSQL path of the same command (README "Backup and restore"), run when
 * KUVERT_TEST_DATABASE_URL is set: the source server runs on a fresh database of that cluster
 * (its default schema, as in production; `CREATE DATABASE` with a random name), `create` runs
 * `pg_dump --format=custom` into the backup, `restore` runs `pg_restore` into a second fresh
 * database and writes the blobs into a new data folder; a server started there hands out the
 * delivery, the room files and the layout image bit-exact. Both databases are dropped after.
 */
describe.skipIf(!pgUrl)('backup and restore on PostgreSQL (pg_dump / pg_restore through the command)', () => {
  const suffix = randomBytes(4).toString('hex');
  const databases = { from: `kuvert_backup_${suffix}_from`, to: `kuvert_backup_${suffix}_to` };
  const urlOf = (name: string) => {
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  async function onCluster(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }
  let source: TestServer | undefined;
  let restored: TestServer | undefined;
  let work: string;
  let alice: E2eActor;
  let delivery: { deliveryUuid: string; fileId: string; bytes: Uint8Array };
  let room: SeededRooms;
  let form: SeededForm;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kuvert-backup-pg-'));
    for (const name of Object.values(databases)) await onCluster(`CREATE DATABASE "${name}"`);
    source = await startTestServer({ databaseUrl: urlOf(databases.from), config: SOURCE_CONFIG });
    const admin = await signInAdmin(source);
    await createUserAsAdmin(source, admin, { email: 'alice@example.test' });
    await createUserAsAdmin(source, admin, { email: 'forms@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
    alice = await e2eActor(source, await signIn(source, 'alice@example.test', 'Good-Passw0rd'));
    await giveSecuPass(alice, 'Alice-SecuPass-backup-pg-Quartz-43');
    const bytes = new Uint8Array(testFileBytes(3 * PART_SIZE + 9));
    const result = await sendDelivery({
      client: alice.client,
      draft: { recipients: ['bob@example.test'], subject: 'Backed up on PostgreSQL', body: 'Keep this.', securityLevel: SECURITY_LEVELS.LEVEL_1 },
      files: [{ name: 'pg.bin', blob: new Blob([bytes]), mimeType: 'application/octet-stream' }],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    delivery = { deliveryUuid: result.delivery.deliveryUuid, fileId: result.delivery.files[0]!.fileId, bytes };
    room = await seedRooms(source, alice);
    form = await seedForm(source, await signIn(source, 'forms@example.test', 'Good-Passw0rd'));
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    for (const name of Object.values(databases)) await onCluster(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await rm(work, { recursive: true, force: true });
  });

  it('pg_dump into the backup, pg_restore into a new database, blobs into a new data folder: everything downloads bit-exact', { timeout: 120_000 }, async () => {
    const backupDir = join(work, 'backup');
    const created = await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source!.dataDir, DATABASE_URL: urlOf(databases.from) });
    expect(created, created.err).toMatchObject({ code: 0 });
    expect(await readdir(backupDir)).toEqual(expect.arrayContaining(['database.pgdump', 'manifest.json', 'blobs', 'secret.key']));
    // Private like the rest of the backup (pg_dump made its file 0644; issue 29 §2).
    for (const name of ['database.pgdump', 'manifest.json', 'secret.key']) expect(((await stat(join(backupDir, name))).mode & 0o777).toString(8), name).toBe('600');
    const checked = await backupCommand(['check', backupDir], {});
    expect(checked, checked.err).toMatchObject({ code: 0 });

    // Another key than the backed-up servers': refused before anything is written (the next restore into the same database works).
    const wrongKey = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: join(work, 'wrong-key'), DATABASE_URL: urlOf(databases.to), KUVERT_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.err).toMatch(/KUVERT_SECRET_KEY is not the key the backed-up servers used.*nothing restored/);

    const target = join(work, 'restored');
    const restoredRun = await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: target, DATABASE_URL: urlOf(databases.to) });
    expect(restoredRun, restoredRun.err).toMatchObject({ code: 0 });
    // The database holds Kuvert tables now: a second restore into it is refused.
    expect((await backupCommand(['restore', backupDir], { KUVERT_DATA_DIR: join(work, 'again'), DATABASE_URL: urlOf(databases.to) })).err).toMatch(/already holds Kuvert tables/);

    restored = await startTestServer({ reuse: { dataDir: target, databaseSchema: undefined }, databaseUrl: urlOf(databases.to), config: SOURCE_CONFIG });
    expect(restored.app.databaseKind).toBe('postgres');
    const aliceThere = { ...(await e2eActor(restored, await signIn(restored, 'alice@example.test', 'Good-Passw0rd'))), crypto: alice.crypto, keys: alice.keys, pins: alice.pins };
    const response = await aliceThere.fetch(deliveryContentUrl(delivery.deliveryUuid, delivery.fileId, null, restored.url));
    expect(response.status).toBe(200);
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(delivery.bytes));
    await expectRoomsRestored(restored, aliceThere, room);
    await expectFormRestored(restored, form);
  });
});
