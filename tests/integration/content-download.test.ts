// The content route's body (server/storage/pooled-body.ts): a few reused buffers instead of a fresh
// Buffer per chunk. What must hold: bytes identical across parts and buffer boundaries, also for a
// client that reads slowly (a buffer is reused only once the socket has taken it); ranges; HEAD;
// a client that leaves mid-way is not counted as a download; a missing part cuts the connection
// (a short body, never wrong bytes) and the server carries on.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createApiClient } from '@shared/api/client';
import { DELIVERY_PATHS, type DeliveryDetail } from '@shared/contract/deliveries';
import { sendDelivery } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOLED_BODY_BUFFERS, POOLED_BODY_CHUNK_BYTES } from '../../server/storage/pooled-body';
import { createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/** Parts that do not line up with the response buffers. */
const PART_SIZE = 700_000;

let server: TestServer;
let alice: Session;
let bob: Session;
let deliveryUuid: string;
let fileId: string;
let bytes: Buffer;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const contentUrl = () => `${server.url}/api/2${DELIVERY_PATHS.content(deliveryUuid, fileId)}`;

/** GET through node:http; `pauseAfterFirstChunkMs` stops reading a while so the server's writes back up. */
function get(headers: Record<string, string>, options: { pauseAfterFirstChunkMs?: number; abortAfterBytes?: number } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; aborted: boolean }>((resolve, reject) => {
    const req = request(contentUrl(), { headers }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let paused = false;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (options.abortAfterBytes !== undefined && received >= options.abortAfterBytes) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), aborted: true });
          return;
        }
        if (options.pauseAfterFirstChunkMs && !paused) {
          paused = true;
          res.pause();
          setTimeout(() => res.resume(), options.pauseAfterFirstChunkMs);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), aborted: false }));
      res.on('error', reject);
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
  bob = await signIn(server, 'bob@example.test', 'Good-Passw0rd');
  // 16 MiB: more than loopback socket buffers hold, so a paused reader makes the server wait.
  bytes = testFileBytes(16 * POOLED_BODY_BUFFERS * POOLED_BODY_CHUNK_BYTES + 12_345);
  const client = createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: alice.cookie } }) });
  client.setAntiCsrfToken(alice.csrf);
  const sent = await sendDelivery({
    client,
    draft: { recipients: ['bob@example.test'], subject: 'Pooled body', body: '', securityLevel: 0 },
    files: [{ name: 'big.bin', blob: new Blob([new Uint8Array(bytes)]) }],
  });
  if (!sent.ok) throw new Error(JSON.stringify(sent.error));
  deliveryUuid = sent.delivery.deliveryUuid;
  fileId = sent.delivery.files[0]!.fileId;
});
afterAll(() => server?.close());

async function downloadedBy(email: string): Promise<boolean> {
  const response = await fetch(`${server.url}/api/2/deliveries/${deliveryUuid}`, { headers: { cookie: alice.cookie } });
  const detail = (await response.json()) as DeliveryDetail;
  return detail.recipients.find((r) => r.email === email)?.downloadedAt != null;
}

describe('content route body', () => {
  it('a client that leaves mid-way gets a prefix of the bytes and is not counted as having downloaded', async () => {
    const left = await get({ cookie: bob.cookie }, { abortAfterBytes: POOLED_BODY_CHUNK_BYTES });
    expect(left.aborted).toBe(true);
    expect(left.body.equals(bytes.subarray(0, left.body.length))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await downloadedBy('bob@example.test')).toBe(false);
  });

  it('sends identical bytes to a client that stops reading for a while, then counts the download', async () => {
    const slow = await get({ cookie: bob.cookie }, { pauseAfterFirstChunkMs: 400 });
    expect(slow.status).toBe(200);
    expect(Number(slow.headers['content-length'])).toBe(bytes.length);
    expect(slow.body.length).toBe(bytes.length);
    expect(sha256(slow.body)).toBe(sha256(bytes));
    await expect.poll(() => downloadedBy('bob@example.test')).toBe(true);
  });

  it('answers ranges across parts and buffer boundaries, and HEAD without a body', async () => {
    const start = POOLED_BODY_CHUNK_BYTES - 7;
    const end = 2 * PART_SIZE + 5;
    const ranged = await get({ cookie: bob.cookie, range: `bytes=${start}-${end}` }, { pauseAfterFirstChunkMs: 100 });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(ranged.body.equals(bytes.subarray(start, end + 1))).toBe(true);

    const head = await fetch(contentUrl(), { method: 'HEAD', headers: { cookie: bob.cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('a part missing from the blob folder cuts the connection after the parts before it; the server carries on', async () => {
    const folder = join(server.dataDir, 'blobs', 'deliveries', deliveryUuid);
    const [fileFolder] = await readdir(folder);
    await rm(join(folder, fileFolder!, '2'));
    const cut = get({ cookie: bob.cookie });
    await expect(cut).rejects.toThrow();
    // Still serving: the sender's view of the delivery answers.
    expect((await fetch(`${server.url}/api/2/deliveries/${deliveryUuid}`, { headers: { cookie: alice.cookie } })).status).toBe(200);
  });
});
