import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { downloadE2eFile, openE2eDelivery, sendDelivery } from '@shared/transfer';
import { startS3TestServer, type S3TestServer } from '@server/storage/s3-test-server';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, signIn, signInAdmin } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

/**
 * `npm run backup` (src/server/backup.ts) run as the real command: a running server with
 * deliveries of levels 1–4 is backed up, the backup checked, restored onto a new data folder,
 * and a server started there hands out every file bit-exact. A blob taken out of the backup
 * makes `check` fail naming it, and `restore` refuses.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECORD_SIZE = 1024;
const PART_SIZE = 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Runs the backup command with a server's environment; resolves with its exit code and output. */
async function backupCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/backup.ts', ...args], {
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

const sqliteOnly = Boolean(process.env.KUVERT_TEST_DATABASE_URL);

describe.skipIf(sqliteOnly)('backup and restore (SQLite, local blob folder)', () => {
  let source: TestServer;
  let restored: TestServer | undefined;
  let work: string;
  let alice: E2eActor;
  let bob: E2eActor;
  const sent: Array<{ level: number; deliveryUuid: string; fileId: string; bytes: Uint8Array }> = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kuvert-backup-'));
    source = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
    const admin = await signInAdmin(source);
    for (const email of ['alice@example.test', 'bob@example.test']) await createUserAsAdmin(source, admin, { email });
    alice = await e2eActor(source, await signIn(source, 'alice@example.test', 'Good-Passw0rd'));
    bob = await e2eActor(source, await signIn(source, 'bob@example.test', 'Good-Passw0rd'));
    await giveSecuPass(alice, 'Alice-SecuPass-backup-Quartz-41');
    await giveSecuPass(bob, 'Bob-SecuPass-backup-Lantern-42');
    for (const level of [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2, SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4]) {
      const bytes = new Uint8Array(randomBytes(3 * PART_SIZE + 100 + level));
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
  }, 90_000);
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up the running server, checks the backup, restores it onto a new data folder: every delivery of levels 1–4 downloads bit-exact', { timeout: 120_000 }, async () => {
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

    restored = await startTestServer({ reuse: { dataDir: target, databaseSchema: undefined }, config: { uploadPartSize: PART_SIZE } });
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
  });

  it('check names a blob missing from the backup and restore refuses it', { timeout: 60_000 }, async () => {
    const backupDir = join(work, 'backup-damaged');
    expect((await backupCommand(['create', backupDir], { KUVERT_DATA_DIR: source.dataDir })).code).toBe(0);
    const { deliveryUuid, fileId } = sent[0]!; // level 1: 4 parts of 1 KiB
    const missing = `deliveries/${deliveryUuid}/${fileId}/1`;
    await rm(join(backupDir, 'blobs', ...missing.split('/')));
    const checked = await backupCommand(['check', backupDir], {});
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(`missing blob: ${missing}`);
    expect(checked.err.match(/missing blob/g)).toHaveLength(1);
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
    const bytes = new Uint8Array(randomBytes(4 * PART_SIZE + 7));
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
  });
});
