import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { announceDeliveryFile, createDeliveryDraft } from '@shared/api/endpoints/delivery-send';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { API_BASE } from '@shared/contract/constants';
import { CONTENT_SHA256_HEADER, DELIVERY_PATHS } from '@shared/contract/deliveries';
import { DEFAULT_RETRY, RETRY_WINDOW_MS, sendDelivery, type SendProgress, type SendResult } from '@shared/transfer';
import { startS3TestServer, type S3TestServer } from '@server/storage/s3-test-server';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { sessionClient } from './e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Issue 29 §3: the blob store goes away during uploads (the S3 test server stopped, the local blob
 * folder gone) for longer than the engine's old ~3.5 s of retries. Part uploads answer 503
 * with Retry-After in the error shape, a download answers 503 before any byte, and uploads running
 * through the real engine (Node) finish by themselves once the store is back, bit-exact.
 */

const PART_SIZE = 1024;
/** Longer than the old 4 attempts (~3.5 s), shorter than the engine's retry window. */
const OUTAGE_MS = 6_000;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const draft = (subject: string) => ({ recipients: ['bob@example.test'], subject, body: 'During an outage.', securityLevel: 0 as const });

interface Fixture {
  server: TestServer;
  alice: Session;
  /** Takes the store away; the promise resolves once it is away. */
  breakStore(): Promise<void>;
  restoreStore(): Promise<void>;
}

async function signedInUsers(server: TestServer): Promise<Session> {
  const admin = await signInAdmin(server);
  for (const email of ['alice@example.test', 'bob@example.test']) await createUserAsAdmin(server, admin, { email });
  return signIn(server, 'alice@example.test', 'Good-Passw0rd');
}

/** A sent delivery to download later (from before the outage). */
async function sentDelivery(fixture: Fixture, bytes: Uint8Array) {
  const { client } = sessionClient(fixture.server, fixture.alice);
  const result = await sendDelivery({ client, draft: draft('Before the outage'), files: [{ name: 'before.bin', blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) }] });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.delivery;
}

async function expectStorageUnavailable(response: Response) {
  const body = await expectBackendError(response, 503, 'ServiceUnavailableException');
  expect(body.metadata).toMatchObject({ part: 'storage', reason: 'storageUnavailable', retryAfterSeconds: 5 });
  expect(response.headers.get('retry-after')).toBe('5');
  expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|ENOENT|127\.0\.0\.1|blobs/);
}

function outageSuite(name: string, setUp: () => Promise<Fixture>, tearDown: () => Promise<void>) {
  describe(name, () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await setUp();
    }, 60_000);
    afterAll(tearDown);

    it('uploads in flight ride over the outage and finish by themselves; meanwhile a part answers 503 + Retry-After and a download answers 503 before any byte', async () => {
      const { server, alice } = fixture;
      const { client, fetch: aliceFetch } = sessionClient(server, alice);
      const before = testFileBytes(3 * PART_SIZE + 17);
      const sent = await sentDelivery(fixture, before);
      // A file announced before the outage, for raw part PUTs during it.
      const probeDraft = await createDeliveryDraft(client, draft('Probe'));
      const probeFile = await announceDeliveryFile(client, probeDraft.deliveryUuid, { name: 'probe.bin', size: PART_SIZE, mimeType: 'application/octet-stream' });

      const bytes = testFileBytes(300 * PART_SIZE + 123);
      const waitingBytes = testFileBytes(40 * PART_SIZE);
      let broken: Promise<void> | undefined;
      const states: SendProgress['files'][number]['state'][] = [];
      const uploads: Array<Promise<SendResult>> = [
        // The engine as shipped: its default retry rides over the outage without pausing.
        sendDelivery({
          client,
          draft: draft('Through the outage'),
          files: [{ name: 'through.bin', blob: new Blob([bytes]) }],
          onProgress: (progress) => {
            if (!broken && progress.bytesSent >= 20 * PART_SIZE) broken = fixture.breakStore();
          },
        }),
      ];
      await expect.poll(() => broken !== undefined, { timeout: 20_000, interval: 20 }).toBe(true);
      await broken;
      // The same engine with a short retry window (the real clock): it pauses, then goes on by itself.
      uploads.push(
        sendDelivery({
          client,
          draft: draft('Paused in the outage'),
          files: [{ name: 'paused.bin', blob: new Blob([waitingBytes]) }],
          retry: { ...DEFAULT_RETRY, retryWindowMs: 1_000, pausedIntervalMs: 1_000 },
          onProgress: (progress) => {
            const state = progress.files[0]?.state;
            if (state && states.at(-1) !== state) states.push(state);
          },
        }),
      );

      const partResponse = await aliceFetch(`${server.url}${API_BASE}${DELIVERY_PATHS.part(probeDraft.deliveryUuid, probeFile.fileId, 0)}`, {
        method: 'PUT',
        headers: { [ANTI_CSRF_HEADER]: alice.csrf, 'content-type': 'application/octet-stream', [CONTENT_SHA256_HEADER]: sha256(new Uint8Array(PART_SIZE)) },
        body: new Uint8Array(PART_SIZE),
      });
      await expectStorageUnavailable(partResponse);

      const download = await aliceFetch(deliveryContentUrl(sent.deliveryUuid, sent.files[0]!.fileId, null, server.url));
      expect(download.headers.get('content-disposition')).toBeNull(); // no file answer had started
      await expectStorageUnavailable(download);

      await expect.poll(() => states.includes('paused'), { timeout: 10_000, interval: 50 }).toBe(true);
      await delay(OUTAGE_MS);
      await fixture.restoreStore();

      const [through, paused] = await Promise.all(uploads);
      expect(through, JSON.stringify(through)).toMatchObject({ ok: true });
      expect(paused, JSON.stringify(paused)).toMatchObject({ ok: true });
      expect(states).toEqual(['pending', 'uploading', 'paused', 'uploading', 'success']);
      const finished: Array<[SendResult | undefined, Uint8Array]> = [[through, bytes], [paused, waitingBytes]];
      for (const [result, original] of finished) {
        if (!result?.ok) continue;
        const file = result.delivery.files[0]!;
        const response = await aliceFetch(deliveryContentUrl(result.delivery.deliveryUuid, file.fileId, null, server.url));
        expect(response.status).toBe(200);
        expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(original));
      }
      // The download refused during the outage works again.
      const again = await aliceFetch(deliveryContentUrl(sent.deliveryUuid, sent.files[0]!.fileId, null, server.url));
      expect(sha256(new Uint8Array(await again.arrayBuffer()))).toBe(sha256(before));
    }, 60_000 + RETRY_WINDOW_MS);
  });
}

let s3: S3TestServer | undefined;
let s3Server: TestServer | undefined;
outageSuite(
  'the S3 test server stopped',
  async () => {
    s3 = await startS3TestServer();
    const bucket = s3;
    s3Server = await startTestServer({
      config: { s3Endpoint: bucket.endpoint, s3Bucket: bucket.bucket, s3AccessKeyId: bucket.env.S3_ACCESS_KEY_ID, s3SecretAccessKey: bucket.env.S3_SECRET_ACCESS_KEY, s3ForcePathStyle: true, uploadPartSize: PART_SIZE },
    });
    return { server: s3Server, alice: await signedInUsers(s3Server), breakStore: () => bucket.stop(), restoreStore: () => bucket.start() };
  },
  async () => {
    await s3Server?.close();
    await s3?.close();
  },
);

let localServer: TestServer | undefined;
outageSuite(
  'the local blob folder gone (an unmounted volume)',
  async () => {
    localServer = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
    const blobs = join(localServer.dataDir, 'blobs');
    return {
      server: localServer,
      alice: await signedInUsers(localServer),
      breakStore: () => rename(blobs, `${blobs}.away`),
      restoreStore: () => rename(`${blobs}.away`, blobs),
    };
  },
  async () => {
    await localServer?.close();
  },
);
