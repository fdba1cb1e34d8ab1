import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { sendDelivery } from '@shared/transfer';
import { startS3TestServer } from '@server/storage/s3-test-server';
import { freePort } from '@tests/support/child-server';
import { clamdUnavailable, startTestClamd, type TestClamd } from '@tests/support/clamd';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin } from './core-helpers';
import { e2eActor } from './e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/** /healthz, /readyz and /metrics on real servers (README, "Health, readiness and metrics"). */

const TOKEN = 'metrics-token-0123456789abcdef';
const readyz = async (server: TestServer) => {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, { status: string; reason?: string }> } };
};
/** One sample's value from the Prometheus text, e.g. `kuvert_transfers_in_flight{direction="upload"}`. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

describe('health and readiness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('/healthz answers while the process runs; /readyz checks each part; /metrics is off by default; none is in the API document', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('cache-control')).toBe('no-store');

    expect(await readyz(server)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { database: { status: 'ok' }, migrations: { status: 'ok' }, blobStore: { status: 'ok' }, mail: { status: 'ok' }, virusScanner: { status: 'skipped', reason: 'KUVERT_CLAMD not set' } },
      },
    });

    await expectBackendError(await fetch(`${server.url}/metrics`), 404, 'NotFoundException');
    const doc = (await (await fetch(`${server.url}/api/2/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => /healthz|readyz|metrics/.test(p))).toEqual([]);
  });

  it('/readyz is 503 naming the part when the migrations are behind the code, and ready again once they are not', async () => {
    const last = await server.app.db.selectFrom('kysely_migration' as never).selectAll().orderBy('name' as never, 'desc').executeTakeFirstOrThrow();
    await server.app.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', (last as { name: string }).name as never).execute();
    try {
      const { status, body } = await readyz(server);
      expect(status).toBe(503);
      expect(body.status).toBe('not ready');
      expect(body.checks.migrations).toEqual({ status: 'failed', reason: 'MigrationsPending' });
      expect(body.checks.database).toEqual({ status: 'ok' });
    } finally {
      await server.app.db.insertInto('kysely_migration' as never).values(last as never).execute();
    }
    expect((await readyz(server)).status).toBe(200);
  });
});

describe('readiness of the mail relay and the S3 store', () => {
  it('an SMTP relay that is down and an S3 store that went away make /readyz 503, naming each part, never a secret', async () => {
    const s3 = await startS3TestServer();
    const deadSmtp = `smtp://mailer:Hunter2-smtp-secret@127.0.0.1:${await freePort()}`;
    const server = await startTestServer({
      config: { smtpUrl: deadSmtp, s3Endpoint: s3.endpoint, s3Bucket: s3.bucket, s3AccessKeyId: s3.env.S3_ACCESS_KEY_ID, s3SecretAccessKey: s3.env.S3_SECRET_ACCESS_KEY, s3ForcePathStyle: true },
    });
    try {
      const before = await readyz(server);
      expect(before.status).toBe(503);
      expect(before.body.checks.mail).toEqual({ status: 'failed', reason: 'ESOCKET' });
      expect(before.body.checks.blobStore).toEqual({ status: 'ok' });
      await s3.close();
      const after = await readyz(server);
      expect(after.status).toBe(503);
      expect(after.body.checks.blobStore?.status).toBe('failed');
      expect(after.body.checks.database).toEqual({ status: 'ok' });
      expect(JSON.stringify(after.body)).not.toMatch(/Hunter2|S3RVER/);
    } finally {
      await server.close();
      await s3.close().catch(() => undefined);
    }
  });
});

const clamdMissing = clamdUnavailable();
if (clamdMissing) console.warn(clamdMissing);

describe.skipIf(clamdMissing !== null)('readiness of clamd (KUVERT_CLAMD)', () => {
  // The real clamd (tests/support/clamd.ts: its own process, over TCP here), so /readyz's PING is
  // answered by ClamAV itself; a free port nobody listens on stands for a scanner that is down.
  let clamd: TestClamd;
  beforeAll(async () => {
    clamd = await startTestClamd();
  }, 60_000);
  afterAll(() => clamd?.dispose());

  it('clamd answering PONG over TCP → virusScanner ok; clamd on a closed port → 503 naming virusScanner', async () => {
    const up = await startTestServer({ config: { clamdAddress: clamd.tcpAddress } });
    try {
      expect(await readyz(up)).toMatchObject({ status: 200, body: { status: 'ready', checks: { virusScanner: { status: 'ok' } } } });
    } finally {
      await up.close();
    }
    const down = await startTestServer({ config: { clamdAddress: `tcp://127.0.0.1:${await freePort()}` } });
    try {
      const { status, body } = await readyz(down);
      expect(status).toBe(503);
      expect(body.status).toBe('not ready');
      // The clamd client's PING answers false on a refused connection (no error code to pass on).
      expect(body.checks.virusScanner).toEqual({ status: 'failed', reason: 'NoPong' });
      expect(body.checks.database).toEqual({ status: 'ok' });
    } finally {
      await down.close();
    }
  });
});

describe('metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { metricsToken: TOKEN, uploadPartSize: 1024 } });
  });
  afterAll(() => server?.close());

  it('refuses a scraper without the bearer token (error object, WWW-Authenticate), serves Prometheus text with it', async () => {
    const anonymous = await fetch(`${server.url}/metrics`);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="kuvert-metrics"');
    await expectBackendError(anonymous, 401, 'AuthenticationRequiredException');
    await expectBackendError(await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } }), 401, 'AuthenticationRequiredException');
    await expectBackendError(await fetch(`${server.url}/metrics`, { headers: { authorization: TOKEN } }), 401, 'AuthenticationRequiredException');
    const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scraped.text();
    for (const name of ['kuvert_http_requests_total', 'kuvert_http_request_duration_seconds', 'kuvert_transfers_in_flight', 'kuvert_http_received_bytes_total', 'kuvert_jobs', 'kuvert_virus_scan_files', 'kuvert_process_resident_memory_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts an upload and a download: requests by route, bytes in and out, nothing left in flight, files by scan state', async () => {
    const admin = await signInAdmin(server);
    await createUserAsAdmin(server, admin, { email: 'metrics-sender@example.test' });
    const alice = await e2eActor(server, await signIn(server, 'metrics-sender@example.test', 'Good-Passw0rd'));
    const bytes = new Uint8Array(testFileBytes(3 * 1024 + 5));
    const result = await sendDelivery({
      client: alice.client,
      draft: { recipients: ['someone@example.test'], subject: 'Counted', body: '', securityLevel: SECURITY_LEVELS.LEVEL_1 },
      files: [{ name: 'counted.bin', blob: new Blob([bytes]), mimeType: 'application/octet-stream' }],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const file = result.delivery.files[0]!;
    const download = await alice.fetch(deliveryContentUrl(result.delivery.deliveryUuid, file.fileId, null, server.url));
    expect((await download.arrayBuffer()).byteLength).toBe(bytes.byteLength);

    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(sample(text, 'kuvert_http_requests_total{method="PUT",route="/api/2/deliveries/:deliveryUuid/files/:fileId/parts/:index",status="200"}')).toBe(4);
    expect(sample(text, 'kuvert_http_requests_total{method="GET",route="/api/2/deliveries/:deliveryUuid/files/:fileId/content",status="200"}')).toBe(1);
    expect(sample(text, 'kuvert_http_received_bytes_total{transfer="upload"}')).toBeGreaterThan(bytes.byteLength);
    expect(sample(text, 'kuvert_http_sent_bytes_total{transfer="download"}')).toBeGreaterThan(bytes.byteLength);
    expect(sample(text, 'kuvert_transfers_in_flight{direction="upload"}')).toBe(0);
    expect(sample(text, 'kuvert_transfers_in_flight{direction="download"}')).toBe(0);
    expect(sample(text, 'kuvert_virus_scan_files{state="notScanned"}')).toBe(1);
    expect(sample(text, 'kuvert_http_request_duration_seconds_count{method="GET",route="/api/2/deliveries/:deliveryUuid/files/:fileId/content"}')).toBe(1);
  });
});
