import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { DELIVERY_PATHS, type DeliveryDetail } from '@shared/contract/deliveries';
import { TRUST_DELIVERY_ERROR, TRUST_DELIVERY_PATHS, TRUST_SIGNATURE_ERROR, type TrustConnection } from '@shared/contract/trust-networks';
import { utf8Encode } from '@shared/crypto/bytes';
import { getReleaseList } from '@shared/api/endpoints/delivery-e2e';
import { downloadE2eFile, openE2eDelivery, releaseToRecipient, sendDelivery } from '@shared/transfer';
import { readMailbox } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';
import { establishPair, runTrustJobs, signedPost, transferOf, type TrustSide } from './trust-helpers';

// Trust networks, levels 3/4 (issue 30 §2): A (SQLite) and B (PostgreSQL when
// KUVERT_TEST_DATABASE_URL is set), connected through their admin APIs. Each user is its own
// "browser" with the product's CryptoService (the code the Worker runs) and its own pins; the
// sender's browser gets the partner recipient's key through its own server's signed look-up.

const NO_POLL = 600_000;
/** Small records so a few KiB make several parts. */
const RECORD_SIZE = 1024;
const MARKER = 'PLAINTEXT-MARKER-trust-e2e-9c41';
const config = { outboundAllow: ['127.0.0.1'], outboundAllowHttp: true, jobPollIntervalMs: NO_POLL };

let a: TestServer;
let b: TestServer;
let adminA: Session;
let adminB: Session;
let alice: E2eActor; // on A, with a SecuPass
let anna: E2eActor; // on A, with a SecuPass
let bob: E2eActor; // on B, with a SecuPass
let bert: E2eActor; // on B, with a SecuPass
let onA: TrustConnection;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const runJobs = () => runTrustJobs([a, b]);

function markedFile(size: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(size));
  bytes.set(utf8Encode(MARKER), Math.floor(size / 2));
  return bytes;
}

async function actor(server: TestServer, admin: Session, email: string, passphrase?: string): Promise<E2eActor> {
  await createUserAsAdmin(server, admin, { email });
  const made = await e2eActor(server, await signIn(server, email, 'Good-Passw0rd'));
  if (passphrase) await giveSecuPass(made, passphrase);
  return made;
}

beforeAll(async () => {
  a = await startTestServer({ config, sqlite: true });
  b = await startTestServer({ config });
  adminA = await signInAdmin(a);
  adminB = await signInAdmin(b);
  alice = await actor(a, adminA, 'alice@a.example', 'Alice-SecuPass-trust-Quartz-41');
  anna = await actor(a, adminA, 'anna@a.example', 'Anna-SecuPass-trust-Meadow-44');
  bob = await actor(b, adminB, 'bob@b.example', 'Bob-SecuPass-trust-Lantern-42');
  bert = await actor(b, adminB, 'bert@b.example', 'Bert-SecuPass-trust-Harbour-43');
  const sideA: TrustSide = { server: a, admin: adminA, url: a.url, domains: ['a.example'] };
  const sideB: TrustSide = { server: b, admin: adminB, url: b.url, domains: ['b.example'] };
  ({ onA } = await establishPair(sideA, sideB));
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

/** A level 3 (20) or 4 (30) delivery through the product's send engine, encrypted in the sender's "browser". */
async function sendE2e(sender: E2eActor, to: string, level: 20 | 30, bytes: Uint8Array, message: { subject: string; body: string }): Promise<string> {
  const result = await sendDelivery({
    client: sender.client,
    draft: { recipients: [to], subject: message.subject, body: message.body, securityLevel: level },
    files: [{ name: 'report.bin', blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), mimeType: 'application/octet-stream' }],
    e2e: e2eOf(sender, { recordSize: RECORD_SIZE }),
  });
  if (!result.ok) throw Object.assign(new Error('send failed'), { cause: result.error });
  return result.delivery.deliveryUuid;
}

/** The reader opens the delivery on its own server and decrypts the file in its "browser". */
async function readOn(server: TestServer, reader: E2eActor, deliveryUuid: string) {
  const opened = await openE2eDelivery({ client: reader.client, deliveryUuid, e2e: e2eOf(reader) });
  const file = opened.files[0]!;
  const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: reader.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, server.url), fetch: reader.fetch });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  await opened.close();
  return { opened, bytes, fileId: file.fileId };
}

async function detail(server: TestServer, session: Session, deliveryUuid: string): Promise<DeliveryDetail> {
  const response = await call(server, session, 'GET', `/api/2${DELIVERY_PATHS.one(deliveryUuid)}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as DeliveryDetail;
}

describe('levels 3 and 4 across a connection', () => {
  it('level 3 A→B: the key comes from B through A, B holds only ciphertext, bob decrypts identical bytes on B, alice sees downloaded', async () => {
    // The chips: bob is registered with a passphrase, answered by B's signed look-up through A.
    const status = await call(a, alice.session, 'POST', `/api/2${DELIVERY_PATHS.recipientStatus}`, { emails: ['bob@b.example'], withKeys: true });
    expect(await status.json()).toMatchObject({ recipients: [{ email: 'bob@b.example', registered: true, hasPassphrase: true, userUuid: bob.userUuid, encryptionKey: { usage: 'encryption' }, partnerServer: b.url }] });
    const bytes = markedFile(20 * RECORD_SIZE + 123);
    const deliveryUuid = await sendE2e(alice, 'bob@b.example', 20, bytes, { subject: `Level 3 ${randomUUID()}`, body: 'Across, encrypted.' });
    // Bob's key was pinned from B's signed answer, relayed by A.
    expect(await alice.pins.get(`${bob.userUuid}:encryption`)).toMatch(/^[0-9a-f]{64}$/);
    expect((await detail(a, alice.session, deliveryUuid)).recipients[0]).toMatchObject({ email: 'bob@b.example', partnerServer: { url: b.url, state: 'waiting' } });
    await runJobs();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'delivered' });
    // No mail from A to bob; B invited him itself.
    expect((await readMailbox(a.mailboxDir)).filter((m) => m.to.includes('bob@b.example'))).toEqual([]);
    expect((await readMailbox(b.mailboxDir)).some((m) => m.to.includes('bob@b.example') && m.text.includes(b.url))).toBe(true);

    // What B stores and hands out is ciphertext only.
    const { bytes: readBack, fileId } = await readOn(b, bob, deliveryUuid);
    expect(sha256(readBack)).toBe(sha256(bytes));
    const raw = new Uint8Array(await (await bob.fetch(deliveryContentUrl(deliveryUuid, fileId, null, b.url))).arrayBuffer());
    expect(Buffer.from(raw).includes(Buffer.from(MARKER))).toBe(false);

    await expect.poll(async () => (await runJobs(), (await detail(a, alice.session, deliveryUuid)).recipients[0]!.downloadedAt), { timeout: 15_000 }).toEqual(expect.any(Number));
  });

  it('level 4 B→A: subject and body only in the signed manifest; anna reads them and identical bytes on A', async () => {
    const bytes = markedFile(5 * RECORD_SIZE);
    const subject = `Level 4 ${randomUUID()}`;
    const deliveryUuid = await sendE2e(bert, 'anna@a.example', 30, bytes, { subject, body: 'Only inside the manifest.' });
    await runJobs();
    expect(await transferOf(b, deliveryUuid)).toMatchObject({ state: 'delivered' });
    const onA = await detail(a, anna.session, deliveryUuid);
    expect(onA.subject).toBe('');
    const { opened, bytes: readBack } = await readOn(a, anna, deliveryUuid);
    expect(opened.message).toEqual({ subject, body: 'Only inside the manifest.' });
    expect(opened.signer).toMatchObject({ userUuid: bert.userUuid, email: 'bert@b.example' });
    expect(sha256(readBack)).toBe(sha256(bytes));
  });

  it('B answers signed key look-ups only for addresses it serves; unsigned is refused', async () => {
    const url = `${b.url}${TRUST_DELIVERY_PATHS.keys}`;
    const ok = await signedPost(a, onA.connectionId, url, { type: 'keyLookup', emails: ['bob@b.example'] });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ type: 'keys', recipients: [{ email: 'bob@b.example', userUuid: bob.userUuid, secupassState: 'active' }] });
    const refused = await expectBackendError(await signedPost(a, onA.connectionId, url, { type: 'keyLookup', emails: ['bob@b.example', 'nobody@b.example', 'alice@a.example'] }), 403, TRUST_DELIVERY_ERROR);
    expect(refused.metadata).toMatchObject({ reason: 'recipientNotServed', recipients: ['nobody@b.example', 'alice@a.example'] });
    await expectBackendError(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'keyLookup', emails: ['bob@b.example'] }) }), 401, TRUST_SIGNATURE_ERROR);
  });

  it('carl on B has no passphrase: invited by B, sets one, A is told through the connection, alice releases on A, the copies go to B and carl decrypts there', async () => {
    const carl = await actor(b, adminB, 'carl@b.example');
    const bytes = markedFile(3 * RECORD_SIZE);
    const subject = `Release ${randomUUID()}`;
    const deliveryUuid = await sendE2e(alice, 'carl@b.example', 20, bytes, { subject, body: '' });
    await runJobs();
    expect(await transferOf(a, deliveryUuid)).toMatchObject({ state: 'delivered' });
    expect((await readMailbox(b.mailboxDir)).some((m) => m.to.includes('carl@b.example') && m.subject.includes(subject))).toBe(true);
    await expect(openE2eDelivery({ client: carl.client, deliveryUuid, e2e: { crypto: carl.crypto, keys: await giveSecuPass(carl, 'Carl-SecuPass-trust-Orchard-46'), pins: carl.pins } })).rejects.toMatchObject({
      errorClass: 'AccessDescriptorNotFoundException',
    });
    // B tells A (not alice directly): the release-needed mail comes from A with A's release page.
    await runJobs();
    expect((await readMailbox(b.mailboxDir)).filter((m) => m.to.includes('alice@a.example'))).toEqual([]);
    expect((await readMailbox(a.mailboxDir)).some((m) => m.to.includes('alice@a.example') && m.text.includes('carl@b.example') && m.text.includes(a.url))).toBe(true);

    const items = (await getReleaseList(alice.client)).items.filter((item) => item.deliveryUuid === deliveryUuid);
    expect(items).toHaveLength(1);
    // Shown "via partner server <B>" in the release page.
    expect(items[0]!.recipient).toMatchObject({ email: 'carl@b.example', userUuid: carl.userUuid, partnerServer: b.url });
    await releaseToRecipient({ client: alice.client, item: items[0]!, e2e: e2eOf(alice) });
    expect((await getReleaseList(alice.client)).items.filter((item) => item.deliveryUuid === deliveryUuid)).toEqual([]);
    const { bytes: readBack } = await readOn(b, carl, deliveryUuid);
    expect(sha256(readBack)).toBe(sha256(bytes));
  });

  // Last: it changes bob's key on B.
  it('B presents another key for bob (his SecuPass reset there): alice’s send stops with the changed-key error, nothing is sent', async () => {
    expect((await call(b, adminB, 'POST', `/api/2/admin/users/${bob.userUuid}/secupass/reset`)).status).toBe(204);
    await giveSecuPass(bob, 'Bob-SecuPass-trust-Second-45');
    const transfersBefore = await a.app.db.selectFrom('trust_transfers').select('id').execute();
    await expect(sendE2e(alice, 'bob@b.example', 20, markedFile(RECORD_SIZE), { subject: 'Should not go', body: '' })).rejects.toMatchObject({ cause: { code: 'keyChanged' } });
    expect(await a.app.db.selectFrom('trust_transfers').select('id').execute()).toHaveLength(transfersBefore.length);
  });
});
