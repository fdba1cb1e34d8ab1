import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_PATHS, type DeliveryDetail, type DeliveryPage } from '@shared/contract/deliveries';
import { TRUST_DELIVERY_ERROR, TRUST_DELIVERY_PATHS, TRUST_SIGNATURE_ERROR, type TrustConnection } from '@shared/contract/trust-networks';
import { sendDelivery } from '@shared/transfer';
import { readMailbox } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyOf } from '../../server/trust-networks/connections';
import { signRequest } from '../../server/trust-networks/signatures';
import { TRUST_TRANSFER_JOB } from '../../server/trust-networks/transfers';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, sessionClient } from './e2e-helpers';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { downloadE2eFile, openE2eDelivery } from '@shared/transfer';
import { establishPair, runTrustJobs, signedPost, transferOf, trustOne, type TrustSide } from './trust-helpers';
import { testFileBytes } from '@tests/support/files';

// Trust networks, slice 2 (issue 30 §2): deliveries across a connection between two real servers —
// A on SQLite, B on PostgreSQL when KUVERT_TEST_DATABASE_URL is set — connected through their admin
// APIs. B is reached through a small HTTP proxy the test can take down and cut mid-transfer (B's
// public URL is the proxy's, as behind a load balancer). Jobs never poll: a kick starts the queue,
// `whenIdle` awaits it; time passing is `run_at` moved into the past.

const NO_POLL = 600_000;
/** Small parts so a few KiB make several (the config minimum). */
const PART_SIZE = 1024;
const PASSWORD = 'Good-Passw0rd';
const config = { outboundAllow: ['127.0.0.1'], outboundAllowHttp: true, jobPollIntervalMs: NO_POLL, uploadPartSize: PART_SIZE };

/** In front of B: forwards, or (down) drops every connection; `cutAfterParts` lets that many part PUTs through, then drops. */
const proxy = { down: false, cutAfterParts: Infinity, partPuts: 0, target: 0 };
let proxyServer: Server;
let proxyUrl: string;

let a: TestServer;
let b: TestServer;
let adminA: Session;
let adminB: Session;
let alice: Session; // on A
let bob: Session; // on B
let bert: Session; // on B, sends back to A
let anna: Session; // on A
let onA: TrustConnection;
let onB: TrustConnection;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  proxyServer = createServer((incoming, outgoing) => {
    const isPart = incoming.method === 'PUT' && incoming.url?.includes('/parts/');
    if (proxy.down || (isPart && proxy.partPuts >= proxy.cutAfterParts)) {
      incoming.socket.destroy();
      return;
    }
    if (isPart) proxy.partPuts += 1;
    const upstream = httpRequest({ host: '127.0.0.1', port: proxy.target, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;

  a = await startTestServer({ config, sqlite: true });
  b = await startTestServer({ config: { ...config, publicUrl: proxyUrl } });
  proxy.target = Number(new URL(b.url).port);
  adminA = await signInAdmin(a);
  adminB = await signInAdmin(b);
  for (const [server, admin, email] of [[a, adminA, 'alice@a.example'], [a, adminA, 'anna@a.example'], [b, adminB, 'bob@b.example'], [b, adminB, 'bert@b.example']] as const) {
    await createUserAsAdmin(server, admin, { email });
  }
  alice = await signIn(a, 'alice@a.example', PASSWORD);
  anna = await signIn(a, 'anna@a.example', PASSWORD);
  bob = await signIn(b, 'bob@b.example', PASSWORD);
  bert = await signIn(b, 'bert@b.example', PASSWORD);
  ({ onA, onB } = await establishPair(sideA(), sideB()));
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await new Promise((resolve) => proxyServer?.close(resolve));
});

const sideA = (): TrustSide => ({ server: a, admin: adminA, url: a.url, domains: ['a.example'] });
const sideB = (): TrustSide => ({ server: b, admin: adminB, url: proxyUrl, domains: ['b.example'] });

/** A delivery sent through the product's own send engine (draft, parts, commit, send). */
async function send(server: TestServer, session: Session, recipients: string[], level: 0 | 10, files: { name: string; bytes: Buffer }[], subject = `Across ${randomUUID()}`): Promise<string> {
  const result = await sendDelivery({
    client: sessionClient(server, session).client,
    draft: { recipients, subject, body: 'Across the trust network.', securityLevel: level },
    files: files.map((f) => ({ name: f.name, blob: new Blob([new Uint8Array(f.bytes)]) })),
  });
  expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
  return result.ok ? result.delivery.deliveryUuid : '';
}

const runJobs = () => runTrustJobs([a, b]);

async function detail(server: TestServer, session: Session, deliveryUuid: string): Promise<DeliveryDetail> {
  const response = await call(server, session, 'GET', `/api/2${DELIVERY_PATHS.one(deliveryUuid)}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as DeliveryDetail;
}

/** The delivery in the recipient's own inbox on their own server, by subject. */
async function inboxItem(server: TestServer, session: Session, subject: string) {
  const page = (await (await call(server, session, 'GET', `/api/2${DELIVERY_PATHS.inbox}?pageSize=100`)).json()) as DeliveryPage;
  return page.items.find((item) => item.subject === subject);
}

async function download(server: TestServer, session: Session, deliveryUuid: string, fileId: string): Promise<Uint8Array> {
  const response = await fetch(`${server.url}/api/2${DELIVERY_PATHS.content(deliveryUuid, fileId)}`, { headers: { cookie: session.cookie } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

const mailsTo = async (server: TestServer, address: string) => (await readMailbox(server.mailboxDir)).filter((mail) => mail.to.includes(address));

/** A call to B signed as A's side of the connection would sign it. */
const signedToB = (path: string, body: unknown) => signedPost(a, onA.connectionId, `${proxyUrl}${path}`, body);

const announce = (overrides: Record<string, unknown> = {}) => ({
  type: 'delivery',
  transferId: randomUUID(),
  sender: { email: 'alice@a.example', firstName: '', lastName: '' },
  recipients: ['bob@b.example'],
  subject: 'Signed by hand',
  body: '',
  securityLevel: 1,
  language: 'en',
  expiresAt: null,
  files: [],
  ...overrides,
});

describe('deliveries across a connection', () => {
  it('level 1 A→B: pushed to B, in bob’s inbox on B with B’s own mail; no link mail leaves A for him; his download is a receipt on A', async () => {
    const bytes = testFileBytes(3 * PART_SIZE + 17);
    const subject = `Level 1 ${randomUUID()}`;
    const deliveryUuid = await send(a, alice, ['bob@b.example'], 0, [{ name: 'report.pdf', bytes }], subject);
    // Before the job ran: waiting for the partner server.
    expect((await detail(a, alice, deliveryUuid)).recipients[0]).toMatchObject({ email: 'bob@b.example', partnerServer: { url: proxyUrl, state: 'waiting' } });
    await runJobs();
    expect(await mailsTo(a, 'bob@b.example')).toEqual([]);
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'delivered' });
    expect((await detail(a, alice, deliveryUuid)).recipients[0]).toMatchObject({ partnerServer: { url: proxyUrl, state: 'delivered' }, notifiedAt: expect.any(Number), downloadedAt: null });

    const mails = await mailsTo(b, 'bob@b.example');
    expect(mails.map((m) => m.text).join('\n')).toContain(proxyUrl);
    const item = await inboxItem(b, bob, subject);
    expect(item).toMatchObject({ sender: { email: 'alice@a.example' }, securityLevel: 0, fileCount: 1, totalSize: bytes.length });
    const onBob = await detail(b, bob, item!.deliveryUuid);
    expect(sha256(await download(b, bob, item!.deliveryUuid, onBob.files[0]!.fileId))).toBe(sha256(bytes));

    // The download is recorded once its last byte went out (after the answer): run the jobs until the receipt is there.
    await expect.poll(async () => (await runJobs(), (await detail(a, alice, deliveryUuid)).recipients[0]!.downloadedAt), { timeout: 10_000 }).toEqual(expect.any(Number));
    const sent = (await (await call(a, alice, 'GET', `/api/2${DELIVERY_PATHS.sent}?pageSize=100`)).json()) as DeliveryPage;
    expect(sent.items.find((d) => d.deliveryUuid === deliveryUuid)).toMatchObject({ downloaded: true });
    // The receipt went back to A, not as a mail from B to alice.
    expect(await mailsTo(b, 'alice@a.example')).toEqual([]);
    expect((await mailsTo(a, 'alice@a.example')).length).toBeGreaterThan(0);
  });

  it('level 2 B→A: anna finds it in her inbox on A, downloads identical bytes; bert sees downloaded', async () => {
    const bytes = testFileBytes(2 * PART_SIZE);
    const subject = `Level 2 ${randomUUID()}`;
    const deliveryUuid = await send(b, bert, ['anna@a.example'], 10, [{ name: 'contract.bin', bytes }], subject);
    await runJobs();
    expect(await mailsTo(b, 'anna@a.example')).toEqual([]);
    const item = await inboxItem(a, anna, subject);
    expect(item).toMatchObject({ sender: { email: 'bert@b.example' }, securityLevel: 10 });
    const onAnna = await detail(a, anna, item!.deliveryUuid);
    expect(sha256(await download(a, anna, item!.deliveryUuid, onAnna.files[0]!.fileId))).toBe(sha256(bytes));
    await expect.poll(async () => (await runJobs(), (await detail(b, bert, deliveryUuid)).recipients[0]), { timeout: 10_000 }).toMatchObject({ partnerServer: { url: a.url, state: 'delivered' }, downloadedAt: expect.any(Number) });
  });

  it('partner down: pending and waiting, nothing lost; an interrupted transfer resumes with the missing parts only', async () => {
    const bytes = testFileBytes(5 * PART_SIZE);
    proxy.down = true;
    const deliveryUuid = await send(a, alice, ['bob@b.example'], 0, [{ name: 'big.bin', bytes }]);
    await a.app.jobs.whenIdle();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await detail(a, alice, deliveryUuid)).recipients[0]).toMatchObject({ partnerServer: { state: 'waiting' } });
    expect(await a.app.db.selectFrom('jobs').select('kind').where('kind', '=', TRUST_TRANSFER_JOB).where('state', '=', 'pending').execute()).toHaveLength(1);

    // Back, but the line breaks after two parts: still pending, two parts on B.
    proxy.down = false;
    proxy.partPuts = 0;
    proxy.cutAfterParts = 2;
    await a.app.db.updateTable('jobs').set({ run_at: 0 }).where('kind', '=', TRUST_TRANSFER_JOB).execute();
    a.app.jobs.kick();
    await a.app.jobs.whenIdle();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'pending' });
    expect(proxy.partPuts).toBe(2);

    proxy.cutAfterParts = Infinity;
    proxy.partPuts = 0;
    await runJobs();
    expect(proxy.partPuts).toBe(3); // the three missing parts, not all five again
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'delivered' });
    const row = await b.app.db
      .selectFrom('trust_inbound')
      .innerJoin('deliveries', 'deliveries.id', 'trust_inbound.delivery_id')
      .select('deliveries.uuid')
      .where('trust_inbound.transfer_uuid', '=', (await transferOf(a, deliveryUuid)).uuid)
      .executeTakeFirstOrThrow();
    const onBob = await detail(b, bob, row.uuid);
    expect(sha256(await download(b, bob, row.uuid, onBob.files[0]!.fileId))).toBe(sha256(bytes));
  });

  it('level 3: B down during the transfer (the line cut after 3 of 8 parts): it resumes with the missing ciphertext parts, bob decrypts identical bytes on B', async () => {
    // 64 KiB in records of 1 KiB: 8 parts of 8 records (part 0 also the 49-byte header).
    const RECORD = 1024;
    const sender = await e2eActor(a, alice);
    await giveSecuPass(sender, 'Alice-SecuPass-resume-Quartz-47');
    const reader = await e2eActor(b, bob);
    await giveSecuPass(reader, 'Bob-SecuPass-resume-Lantern-48');
    const bytes = new Uint8Array(randomBytes(64 * RECORD));
    proxy.partPuts = 0;
    proxy.cutAfterParts = 3;
    const result = await sendDelivery({
      client: sender.client,
      draft: { recipients: ['bob@b.example'], subject: `Level 3 resumed ${randomUUID()}`, body: '', securityLevel: 20 },
      files: [{ name: 'big.bin', blob: new Blob([bytes]) }],
      e2e: e2eOf(sender, { recordSize: RECORD }),
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    const deliveryUuid = result.ok ? result.delivery.deliveryUuid : '';
    await a.app.jobs.whenIdle();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'pending' });
    expect(proxy.partPuts).toBe(3);

    proxy.cutAfterParts = Infinity;
    proxy.partPuts = 0;
    await runJobs();
    expect(proxy.partPuts).toBe(5); // the five missing parts only
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'delivered' });
    const opened = await openE2eDelivery({ client: reader.client, deliveryUuid, e2e: e2eOf(reader) });
    const file = opened.files[0]!;
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: reader.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, b.url), fetch: reader.fetch });
    await opened.close();
    expect(sha256(new Uint8Array(await blob.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('the sender withdraws a delivery still waiting for the partner: it never reaches B', async () => {
    proxy.down = true;
    const deliveryUuid = await send(a, alice, ['bob@b.example'], 0, [{ name: 'oops.bin', bytes: testFileBytes(100) }]);
    await a.app.jobs.whenIdle();
    proxy.down = false;
    expect((await call(a, alice, 'DELETE', `/api/2${DELIVERY_PATHS.one(deliveryUuid)}`)).status).toBe(204);
    const inboundBefore = await b.app.db.selectFrom('trust_inbound').select('id').execute();
    await runJobs();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'withdrawn' });
    expect(await b.app.db.selectFrom('trust_inbound').select('id').execute()).toHaveLength(inboundBefore.length);
  });

  it('B refuses a sender outside the domains it lists for A and a recipient it does not serve, each in the audit log', async () => {
    const outside = await expectBackendError(await signedToB(TRUST_DELIVERY_PATHS.announce, announce({ sender: { email: 'mallory@elsewhere.example', firstName: '', lastName: '' } })), 403, TRUST_DELIVERY_ERROR);
    expect(outside.metadata).toMatchObject({ reason: 'senderOutsideDomains' });
    const notServed = await expectBackendError(await signedToB(TRUST_DELIVERY_PATHS.announce, announce({ recipients: ['bob@b.example', 'someone@gmail.example'] })), 403, TRUST_DELIVERY_ERROR);
    expect(notServed.metadata).toMatchObject({ reason: 'recipientNotServed', recipients: ['someone@gmail.example'] });
    const log = (await (await call(b, adminB, 'GET', '/api/2/admin/audit-log?action=trustNetwork.deliveryRefused&pageSize=100')).json()) as { entries: { details: { reason: string } }[] };
    expect(log.entries.map((e) => e.details.reason)).toEqual(expect.arrayContaining(['senderOutsideDomains', 'recipientNotServed']));
    // Unsigned: the signature check comes first.
    await expectBackendError(await fetch(`${proxyUrl}${TRUST_DELIVERY_PATHS.announce}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(announce()) }), 401, TRUST_SIGNATURE_ERROR);
  });

  it('A takes a receipt only signed by the partner, for a recipient of a transfer over that connection', async () => {
    const receipt = { type: 'receipt', transferId: randomUUID(), recipient: 'bob@b.example', event: 'downloaded', fileName: 'x', at: Date.now() };
    const url = `${a.url}${TRUST_DELIVERY_PATHS.receipts}`;
    await expectBackendError(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(receipt) }), 401, TRUST_SIGNATURE_ERROR);
    const row = await b.app.db.selectFrom('trust_connections').selectAll().where('uuid', '=', onB.connectionId).executeTakeFirstOrThrow();
    const body = JSON.stringify(receipt);
    const { headers } = await signRequest(url, body, { privateKey: privateKeyOf(b.app, row), keyId: row.own_key_fingerprint });
    const unknown = await expectBackendError(await fetch(url, { method: 'POST', headers, body }), 403, TRUST_DELIVERY_ERROR);
    expect(unknown.metadata).toMatchObject({ reason: 'unknownTransfer' });
  });

  it('a refusal by B ends the transfer as failed at once; the sender sees it', async () => {
    const deliveryUuid = await send(a, alice, ['nobody@b.example'], 0, [{ name: 'x.bin', bytes: testFileBytes(10) }]);
    await a.app.jobs.whenIdle();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await detail(a, alice, deliveryUuid)).recipients[0]).toMatchObject({ partnerServer: { state: 'failed' } });
    expect(await mailsTo(a, 'nobody@b.example')).toEqual([]);
  });

  it('B takes a part only with the bytes its signed digest names, and completes only with every part', async () => {
    const bytes = testFileBytes(10);
    const transferId = randomUUID();
    const fileId = randomUUID();
    const file = { fileId, name: 'f.bin', size: 10, mimeType: 'application/octet-stream', partSize: PART_SIZE, partCount: 1, parts: [sha256(bytes)] };
    expect((await signedToB(TRUST_DELIVERY_PATHS.announce, announce({ transferId, files: [file] }))).status).toBe(200);
    const incomplete = await expectBackendError(await signedToB(TRUST_DELIVERY_PATHS.complete(transferId), { type: 'complete', transferId }), 400);
    expect(JSON.stringify(incomplete.metadata)).toContain('0');
    const row = await a.app.db.selectFrom('trust_connections').selectAll().where('uuid', '=', onA.connectionId).executeTakeFirstOrThrow();
    const url = `${proxyUrl}${TRUST_DELIVERY_PATHS.part(transferId, fileId, 0)}`;
    const { headers } = await signRequest(url, '', { privateKey: privateKeyOf(a.app, row), keyId: row.own_key_fingerprint }, { sha256: sha256(bytes) });
    await expectBackendError(await fetch(url, { method: 'PUT', headers, body: new Uint8Array(randomBytes(10)) }), 400);
  });

  // Last: it deletes the connection.
  it('a deleted connection: B refuses its calls as revoked, A sends to B’s domain by mail again; what B has stays readable', async () => {
    const subject = `Before delete ${randomUUID()}`;
    await send(a, alice, ['bob@b.example'], 0, [{ name: 'kept.bin', bytes: testFileBytes(50) }], subject);
    await runJobs();
    expect((await call(b, adminB, 'DELETE', trustOne(onB.connectionId))).status).toBe(204);
    const revoked = await expectBackendError(await signedToB(TRUST_DELIVERY_PATHS.announce, announce()), 401, TRUST_SIGNATURE_ERROR);
    expect(revoked.metadata).toEqual({ reason: 'revokedKey' });
    const kept = await inboxItem(b, bob, subject);
    expect(kept).toBeDefined();
    expect((await download(b, bob, kept!.deliveryUuid, (await detail(b, bob, kept!.deliveryUuid)).files[0]!.fileId)).length).toBe(50);

    // Waiting when A's administrator deletes the connection: it fails at its next attempt.
    proxy.down = true;
    const waiting = await send(a, alice, ['bob@b.example'], 0, [{ name: 'late.bin', bytes: testFileBytes(10) }]);
    await a.app.jobs.whenIdle();
    proxy.down = false;
    expect((await call(a, adminA, 'DELETE', trustOne(onA.connectionId))).status).toBe(204);
    await runJobs();
    expect(await transferOf(a, waiting)).toMatchObject({ state: 'failed', last_error: 'The trust connection was deleted' });
    const deliveryUuid = await send(a, alice, ['bob@b.example'], 0, [{ name: 'mail.bin', bytes: testFileBytes(10) }]);
    await expect(transferOf(a, deliveryUuid)).rejects.toThrow();
    expect((await detail(a, alice, deliveryUuid)).recipients[0]!.partnerServer).toBeUndefined();
    expect((await mailsTo(a, 'bob@b.example')).length).toBeGreaterThan(0);
  });
});
