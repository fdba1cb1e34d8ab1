import { createHash, randomBytes } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { downloadE2eFile, openE2eDelivery, sendDelivery } from '@shared/transfer';
import { startS3TestServer, type S3TestServer } from '@server/storage/s3-test-server';
import { freePort, startChildServer } from '@tests/support/child-server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, signIn, signInAdmin } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * A real server on the S3 blob store (s3rver, the S3 HTTP API, on a random loopback port):
 * level-1 and level-3 deliveries go up in several parts and come back bit-exact; the bytes are
 * objects in the bucket and nothing lands in the local blob folder. A bad S3 configuration
 * stops the real start command with one line.
 */

const RECORD_SIZE = 1024;
const PART_SIZE = 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const blobOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);
const exists = (path: string) => access(path).then(() => true, () => false);

let s3: S3TestServer;
let server: TestServer;
let alice: E2eActor;
let bob: E2eActor;

beforeAll(async () => {
  s3 = await startS3TestServer();
  server = await startTestServer({
    config: { s3Endpoint: s3.endpoint, s3Bucket: s3.bucket, s3AccessKeyId: s3.env.S3_ACCESS_KEY_ID, s3SecretAccessKey: s3.env.S3_SECRET_ACCESS_KEY, s3ForcePathStyle: true, uploadPartSize: PART_SIZE },
  });
  const admin = await signInAdmin(server);
  for (const email of ['alice@example.test', 'bob@example.test']) await createUserAsAdmin(server, admin, { email });
  alice = await e2eActor(server, await signIn(server, 'alice@example.test', 'Good-Passw0rd'));
  bob = await e2eActor(server, await signIn(server, 'bob@example.test', 'Good-Passw0rd'));
  await giveSecuPass(alice, 'Alice-SecuPass-s3-Quartz-41');
  await giveSecuPass(bob, 'Bob-SecuPass-s3-Lantern-42');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await s3?.close();
});

async function send(level: number, bytes: Uint8Array, e2e: boolean) {
  const result = await sendDelivery({
    client: alice.client,
    draft: { recipients: ['bob@example.test'], subject: `On S3, level ${level}`, body: 'Stored in the bucket.', securityLevel: level as 0 | 20 },
    files: [{ name: 'figures.bin', blob: blobOf(bytes), mimeType: 'application/octet-stream' }],
    ...(e2e ? { e2e: e2eOf(alice, { recordSize: RECORD_SIZE }) } : {}),
  });
  if (!result.ok) throw new Error(`send failed: ${JSON.stringify(result.error)}`);
  return result.delivery;
}

describe('S3 blob store under a real server', () => {
  it('level 1: the parts are objects in the bucket, downloads (whole and a range across parts) are bit-exact, the local blob folder stays empty', async () => {
    const bytes = new Uint8Array(testFileBytes(3 * PART_SIZE + 321));
    const delivery = await send(SECURITY_LEVELS.LEVEL_1, bytes, false);
    const file = delivery.files[0]!;

    const keys = (await s3.objectKeys()).filter((key) => key.startsWith(`deliveries/${delivery.deliveryUuid}/`));
    expect(keys).toHaveLength(4);
    // The bucket holds the bytes themselves (level 1 is not end-to-end encrypted).
    const stored = await Promise.all(keys.sort().map((key) => readFile(join(s3.directory, s3.bucket, `${key}._S3rver_object`))));
    expect(sha256(Buffer.concat(stored))).toBe(sha256(bytes));

    const url = deliveryContentUrl(delivery.deliveryUuid, file.fileId, null, server.url);
    const whole = await alice.fetch(url);
    expect(whole.status).toBe(200);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bytes));
    const ranged = await alice.fetch(url, { headers: { range: `bytes=${PART_SIZE - 10}-${2 * PART_SIZE + 9}` } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(Buffer.from(bytes.subarray(PART_SIZE - 10, 2 * PART_SIZE + 10)))).toBe(true);

    expect(await exists(join(server.dataDir, 'blobs', 'deliveries'))).toBe(false);
  });

  it('level 3: the bucket holds ciphertext only, the recipient decrypts identical bytes', async () => {
    const marker = Buffer.from('S3-PLAINTEXT-MARKER-9f2c');
    const bytes = new Uint8Array(randomBytes(20 * RECORD_SIZE + 77));
    bytes.set(marker, 100);
    const delivery = await send(SECURITY_LEVELS.LEVEL_3, bytes, true);

    const keys = (await s3.objectKeys()).filter((key) => key.startsWith(`deliveries/${delivery.deliveryUuid}/`));
    expect(keys.length).toBeGreaterThan(1);
    for (const key of keys) expect((await readFile(join(s3.directory, s3.bucket, `${key}._S3rver_object`))).includes(marker)).toBe(false);

    const opened = await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) });
    const file = opened.files.find((f) => f.name === 'figures.bin')!;
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: bob.crypto, url: deliveryContentUrl(delivery.deliveryUuid, file.fileId, null, server.url), fetch: bob.fetch });
    expect(sha256(new Uint8Array(await blob.arrayBuffer()))).toBe(sha256(bytes));
    await opened.close();

    expect(await exists(join(server.dataDir, 'blobs', 'deliveries'))).toBe(false);
    expect((await s3.objectKeys()).filter((key) => key.startsWith('.tmp/'))).toEqual([]);
  });
});

describe('a bad S3 configuration stops the start command with one line', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kuvert-s3-bad-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const start = async (env: Record<string, string>) =>
    startChildServer({
      dataDir,
      port: await freePort(),
      admin: { ...TEST_ADMIN },
      // The SDK's own notice that its 2027 versions need Node 22 would be a second line; it is not ours.
      env: { ...s3.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    }).then(
      async (child) => {
        await child.stop();
        throw new Error('the server started');
      },
      (error: Error) => error.message,
    );

  it.each([
    ['an unreachable endpoint', async () => ({ S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }), /^S3_ENDPOINT: http:\/\/127\.0\.0\.1:\d+ is not reachable \(/],
    ['wrong credentials', async () => ({ S3_ACCESS_KEY_ID: 'WRONG', S3_SECRET_ACCESS_KEY: 'hunter2-wrong-secret' }), /^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: .* refused them for bucket "kuvert-test"/],
    ['a missing bucket', async () => ({ S3_BUCKET: 'no-such-bucket' }), /^S3_BUCKET: the bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+; create it first$/],
  ])('%s', async (_name, env, expected) => {
    const message = await start(await env());
    // startChildServer reports "server exited (<code>): <stderr>".
    const [, code, output] = /^server exited \((\d+)\): ([\s\S]*)$/.exec(message)!;
    expect(code).toBe('2');
    const lines = output!.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    expect(output).not.toContain('hunter2');
    expect(await exists(join(dataDir, 'blobs', 'deliveries'))).toBe(false);
  });
});
