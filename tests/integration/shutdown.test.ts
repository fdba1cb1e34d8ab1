import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { openDatabase } from '@server/db/database';
import { clamdUnavailable, startTestClamd, type TestClamd } from '@tests/support/clamd';
import { freePort, startChildServer, type ChildServer } from '@tests/support/child-server';
import { TEST_ADMIN, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * SIGTERM to the real start command (src/server/main.ts): it stops listening at once, hands
 * its running job back to the queue, lets a part upload that is half sent finish and store,
 * then exits 0.
 */

const skipReason = clamdUnavailable();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Resolves once `check` holds, looking again whenever the child writes or every 50 ms. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(skipReason !== null)('graceful shutdown of a real server process', () => {
  let clamd: TestClamd;
  let dataDir: string;
  let child: ChildServer | undefined;
  beforeAll(async () => {
    clamd = await startTestClamd();
    dataDir = await mkdtemp(join(tmpdir(), 'kuvert-shutdown-'));
  }, 60_000);
  afterAll(async () => {
    await child?.kill();
    clamd?.thaw();
    await clamd?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('SIGTERM: no new connections, the running job goes back to the queue, the half-sent part finishes, exit 0', { timeout: 120_000 }, async () => {
    child = await startChildServer({ dataDir, port: await freePort(), admin: { ...TEST_ADMIN }, env: { KUVERT_LOG_LEVEL: 'info', KUVERT_CLAMD: clamd.socket, KUVERT_CLAMD_TIMEOUT: '60000' } });
    const server = { url: child.url } as TestServer;
    const admin = await signIn(server, TEST_ADMIN.email, TEST_ADMIN.password);
    const json = async (response: Response, status: number) => {
      const text = await response.text();
      expect(response.status, text).toBe(status);
      return JSON.parse(text) as { deliveryUuid: string; fileId: string };
    };
    const draft = async (subject: string) => json(await call(server, admin, 'POST', '/api/2/deliveries', { recipients: ['bob@example.test'], subject, body: '', securityLevel: 0 }), 201);

    // 1. A sent delivery whose scan hangs: clamd accepts and never answers, so the job is running.
    clamd.freeze();
    const scanned = await draft('Scanned at shutdown');
    const small = testFileBytes(2000);
    const smallFile = await json(await call(server, admin, 'POST', `/api/2/deliveries/${scanned.deliveryUuid}/files`, { name: 'a.bin', size: small.length, mimeType: 'application/octet-stream' }), 201);
    const put = await fetch(`${child.url}/api/2/deliveries/${scanned.deliveryUuid}/files/${smallFile.fileId}/parts/0`, {
      method: 'PUT',
      headers: { cookie: admin.cookie, [ANTI_CSRF_HEADER]: admin.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(small) },
      body: small,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await call(server, admin, 'POST', `/api/2/deliveries/${scanned.deliveryUuid}/files/${smallFile.fileId}/commit`)).status).toBe(200);
    expect((await call(server, admin, 'POST', `/api/2/deliveries/${scanned.deliveryUuid}/send`)).status).toBe(200);
    const database = await openDatabase({ dataDir, poolSize: 1 });
    try {
      await until('the scan job runs', async () => (await database.db.selectFrom('jobs').select('state').where('unique_key', 'is', null).executeTakeFirst())?.state === 'running');

      // 2. A part upload, half sent.
      const uploading = await draft('Uploading at shutdown');
      const big = testFileBytes(1_048_576);
      const bigFile = await json(await call(server, admin, 'POST', `/api/2/deliveries/${uploading.deliveryUuid}/files`, { name: 'b.bin', size: big.length, mimeType: 'application/octet-stream' }), 201);
      const part = httpRequest(`${child.url}/api/2/deliveries/${uploading.deliveryUuid}/files/${bigFile.fileId}/parts/0`, {
        method: 'PUT',
        headers: { cookie: admin.cookie, [ANTI_CSRF_HEADER]: admin.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(big), 'content-length': String(big.length) },
      });
      const answer = once(part, 'response') as Promise<[import('node:http').IncomingMessage]>;
      part.write(big.subarray(0, big.length / 2));
      const blobDir = join(dataDir, 'blobs', 'deliveries', uploading.deliveryUuid, bigFile.fileId);
      await until('the server writes the part', async () => (await readdir(blobDir).catch(() => [])).some((name) => name.endsWith('.part-tmp')));

      // 3. SIGTERM.
      const exited = once(child.process, 'exit') as Promise<[number | null, string | null]>;
      child.process.kill('SIGTERM');
      await until('the server says it shuts down', () => child!.output().includes('"msg":"shutting down"'));
      // Listening has stopped: a balancer's next connection fails at once and goes to another server.
      await until('new connections are refused', () => fetch(`${child!.url}/healthz`).then(() => false, () => true));
      // The job went back to the queue before the requests were done: pending, attempt not counted, nobody holds it.
      await until('the job is handed back', async () => (await database.db.selectFrom('jobs').select('state').where('unique_key', 'is', null).executeTakeFirst())?.state === 'pending');
      expect(await database.db.selectFrom('jobs').select(['state', 'attempts', 'locked_by']).where('unique_key', 'is', null).executeTakeFirstOrThrow()).toEqual({ state: 'pending', attempts: 0, locked_by: null });

      // 4. The running request finishes: the rest of the body goes in, the part is stored.
      part.end(big.subarray(big.length / 2));
      const [response] = await answer;
      let body = '';
      for await (const chunk of response) body += String(chunk);
      expect(response.statusCode, body).toBe(200);
      expect(JSON.parse(body)).toMatchObject({ index: 0, size: big.length, sha256: sha256(big) });
      const [code] = await exited;
      expect(code).toBe(0);
      expect(child.output()).toContain('"msg":"shut down"');
      expect(await readdir(blobDir)).toEqual(['0']);
      const stored = await database.db.selectFrom('delivery_file_parts').select(['part_index', 'sha256']).where('sha256', '=', sha256(big)).execute();
      expect(stored).toEqual([{ part_index: 0, sha256: sha256(big) }]);
    } finally {
      await database.close();
    }
  });
});
