import { createHash } from 'node:crypto';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { listDeliveryFileParts } from '@shared/api/endpoints/delivery-send';
import { DELIVERY_PATHS, DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { blobUpload, PARTS_IN_FLIGHT, sendDelivery, type SendProgress } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/** Small parts so a few KiB make many (the config minimum). */
const PART_SIZE = 1024;
/** Fast retries in tests; the product waits ~0.5 s, 1 s, 2 s. */
const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

let server: TestServer;
let admin: Session;
let alice: Session; // sender
let bob: Session; // recipient

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
  bob = await signIn(server, 'bob@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

/** What the instrumented fetch saw of the part PUTs. */
interface Probe {
  /** Index of every PUT that reached the network (in order). */
  puts: number[];
  inFlight: number;
  maxInFlight: number;
  /** Indexes whose next PUT fails with a network error before reaching the server. */
  failOnce: Set<number>;
  /** Called after each PUT answered, with the count so far. */
  afterPut?: (count: number) => void;
}
const newProbe = (): Probe => ({ puts: [], inFlight: 0, maxInFlight: 0, failOnce: new Set() });

/** The product's ApiClient over Node's fetch, with the session cookie, counting part PUTs. */
function clientFor(session: Session, probe: Probe = newProbe()): ApiClient {
  let answered = 0;
  const instrumented = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const forward = () => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: session.cookie } });
    const part = init.method === 'PUT' ? /\/parts\/(\d+)$/.exec(url) : null;
    if (!part) return forward();
    const index = Number(part[1]);
    probe.inFlight++;
    probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
    try {
      await delay(15); // keep requests open long enough for overlap to show
      if (probe.failOnce.delete(index)) throw new TypeError('fetch failed (injected)');
      probe.puts.push(index);
      const response = await forward();
      probe.afterPut?.(++answered);
      return response;
    } finally {
      probe.inFlight--;
    }
  };
  const client = createApiClient({ backendUrl: server.url, fetch: instrumented });
  client.setAntiCsrfToken(session.csrf);
  return client;
}

async function downloadAs(session: Session, deliveryUuid: string, fileId: string): Promise<Uint8Array> {
  const response = await fetch(`${server.url}/api/2${DELIVERY_PATHS.content(deliveryUuid, fileId)}`, { headers: { cookie: session.cookie } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

const draft = (subject: string) => ({ recipients: ['bob@example.test'], subject, body: 'See attached.', securityLevel: 0 as const });

describe('sendDelivery against the real server', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('uploads a multi-part file with at most 3 parts in flight; progress is monotonic to 100 %; the recipient gets identical bytes', async () => {
    const bytes = testFileBytes(12 * PART_SIZE - 300); // 12 parts, the last one short
    const second = testFileBytes(PART_SIZE + 1);
    const probe = newProbe();
    const events: SendProgress[] = [];
    const result = await sendDelivery({
      client: clientFor(alice, probe),
      draft: draft('Engine: multi-part'),
      files: [
        { name: 'Bericht März.pdf', blob: new Blob([bytes], { type: 'application/pdf' }) },
        { name: 'second.bin', blob: new Blob([second]) },
      ],
      onProgress: (p) => events.push(p),
      retry: FAST_RETRY,
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    if (!result.ok) return;
    expect(result.delivery.status).toBe('sent');
    expect(PARTS_IN_FLIGHT).toBe(3);
    expect(probe.maxInFlight).toBe(3); // parallel, never more than 3
    expect(probe.puts).toHaveLength(12 + 2); // every part exactly once
    expect([...probe.puts].sort((a, b) => a - b).slice(0, 12)).toEqual([0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    // Progress: never backwards, ends at 100 % with every file a success.
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.percent).toBeGreaterThanOrEqual(events[i - 1]!.percent);
      expect(events[i]!.bytesSent).toBeGreaterThanOrEqual(events[i - 1]!.bytesSent);
    }
    const last = events.at(-1)!;
    expect(last).toMatchObject({ phase: 'done', percent: 100, bytesSent: bytes.length + second.length, totalBytes: bytes.length + second.length });
    expect(last.files.map((f) => f.state)).toEqual(['success', 'success']);
    expect(events.filter((e) => e.percent < 100).every((e) => e.phase !== 'done')).toBe(true);
    // Per file: pending → uploading → success, in that order.
    const states = (i: number) => [...new Set(events.map((e) => e.files[i]!.state))];
    expect(states(0)).toEqual(['pending', 'uploading', 'success']);
    expect(states(1)).toEqual(['pending', 'uploading', 'success']);

    const files = result.delivery.files;
    expect(files.map((f) => f.status)).toEqual(['committed', 'committed']);
    expect(sha256(await downloadAs(bob, result.delivery.deliveryUuid, files[0]!.fileId))).toBe(sha256(bytes));
    expect(sha256(await downloadAs(bob, result.delivery.deliveryUuid, files[1]!.fileId))).toBe(sha256(second));
  });

  it('retries a part that fails once and completes', async () => {
    const bytes = testFileBytes(5 * PART_SIZE);
    const probe = newProbe();
    probe.failOnce.add(2);
    const result = await sendDelivery({
      client: clientFor(alice, probe),
      draft: draft('Engine: retry'),
      files: [{ name: 'retry.bin', blob: new Blob([bytes]) }],
      retry: FAST_RETRY,
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    if (!result.ok) return;
    expect(probe.failOnce.size).toBe(0); // the failure happened
    expect([...probe.puts].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]); // and the retry reached the server once
    expect(sha256(await downloadAs(bob, result.delivery.deliveryUuid, result.delivery.files[0]!.fileId))).toBe(sha256(bytes));
  });

  it('gives up on a part after the bounded attempts and reports a network error', async () => {
    const probe = newProbe();
    const client = clientFor(alice, probe);
    // Fail index 1 on every attempt.
    probe.failOnce = { delete: (i: number) => i === 1, size: 1 } as unknown as Set<number>;
    const result = await sendDelivery({ client, draft: draft('Engine: give up'), files: [{ name: 'x.bin', blob: new Blob([testFileBytes(3 * PART_SIZE)]) }], retry: FAST_RETRY });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: 'network', fileName: 'x.bin' });
    expect(result.deliveryUuid).toBeTruthy();
  });

  it('resumes after an abort: parts already on the server are not PUT again', async () => {
    const bytes = testFileBytes(16 * PART_SIZE);
    const files = [{ name: 'resume.bin', blob: new Blob([bytes]) }];
    const controller = new AbortController();
    const first = newProbe();
    first.afterPut = (count) => {
      if (count === 5) controller.abort();
    };
    const firstEvents: SendProgress[] = [];
    const aborted = await sendDelivery({
      client: clientFor(alice, first),
      draft: draft('Engine: resume'),
      files,
      signal: controller.signal,
      onProgress: (p) => firstEvents.push(p),
      retry: FAST_RETRY,
    });
    expect(aborted.ok).toBe(false);
    if (aborted.ok) return;
    expect(aborted.error.code).toBe('cancelled');
    expect(firstEvents.at(-1)!.files[0]!.state).toBe('cancelled');
    const deliveryUuid = aborted.deliveryUuid!;
    await delay(200); // let the server finish whatever part was mid-way

    const client = clientFor(alice);
    const fileId = firstEvents.at(-1)!.files[0]!.fileId!;
    const before = (await listDeliveryFileParts(client, deliveryUuid, fileId)).parts.map((p) => p.index);
    expect(before.length).toBeGreaterThanOrEqual(5);
    expect(before.length).toBeLessThan(16);

    const second = newProbe();
    const events: SendProgress[] = [];
    const resumed = await sendDelivery({ client: clientFor(alice, second), draft: { deliveryUuid }, files, onProgress: (p) => events.push(p), retry: FAST_RETRY });
    expect(resumed.ok, JSON.stringify(!resumed.ok && resumed.error)).toBe(true);
    if (!resumed.ok) return;
    for (const index of second.puts) expect(before).not.toContain(index);
    expect(second.puts.length).toBe(16 - before.length);
    expect(events.at(-1)).toMatchObject({ phase: 'done', percent: 100 });
    expect(resumed.delivery.files).toHaveLength(1);
    expect(sha256(await downloadAs(bob, deliveryUuid, resumed.delivery.files[0]!.fileId))).toBe(sha256(bytes));
  });

  it('uploads what the transform seam returns (where level 3/4 encryption will plug in)', async () => {
    const bytes = testFileBytes(3 * PART_SIZE + 7);
    const transformed = Uint8Array.from(bytes, (b) => b ^ 0x5a);
    const seen: string[] = [];
    const result = await sendDelivery({
      client: clientFor(alice),
      draft: draft('Engine: transform'),
      files: [{ name: 'seam.bin', blob: new Blob([bytes]) }],
      transform: async (source) => {
        seen.push(source.name);
        return blobUpload(new Blob([transformed]));
      },
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    if (!result.ok) return;
    expect(seen).toEqual(['seam.bin']);
    expect(sha256(await downloadAs(bob, result.delivery.deliveryUuid, result.delivery.files[0]!.fileId))).toBe(sha256(transformed));
  });

  it('surfaces server refusals as typed errors with their metadata', async () => {
    const client = clientFor(alice);
    const blocked = await sendDelivery({ client, draft: draft('Engine: blocked'), files: [{ name: 'setup.exe', blob: new Blob([testFileBytes(10)]) }] });
    expect(blocked.ok).toBe(false);
    if (blocked.ok) return;
    expect(blocked.error).toMatchObject({ code: 'fileNotAllowed', errorClass: 'FileNotAllowedException', status: 400, fileName: 'setup.exe', metadata: { extension: 'exe' } });

    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 1 });
    try {
      const full = await sendDelivery({ client, draft: draft('Engine: quota'), files: [{ name: 'big.bin', blob: new Blob([testFileBytes(2000)]) }] });
      expect(full.ok).toBe(false);
      if (full.ok) return;
      expect(full.error).toMatchObject({ code: 'globalQuotaReached', status: 507, metadata: { spaceAvailable: 0, spaceRequired: 2000 } });
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 0 });
    }

    const invalid = await sendDelivery({ client, draft: { ...draft('Engine: invalid'), recipients: ['not-an-address'] }, files: [] });
    expect(invalid.ok).toBe(false);
    if (invalid.ok) return;
    expect(invalid.error).toMatchObject({ code: 'validation', problem: { code: 'invalidEmail', invalid: ['not-an-address'] } });
    expect(invalid.deliveryUuid).toBeUndefined(); // refused before a draft existed
  });
});
