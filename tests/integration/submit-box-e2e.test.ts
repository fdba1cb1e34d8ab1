import { createHash, randomBytes } from 'node:crypto';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { putSubmitterKeys } from '@shared/api/endpoints/submit-box';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { SUBMIT_BOX_ERRORS, SUBMIT_TICKET_PAGE, SUBMIT_TICKET_PATHS, type SubmitBox, type SubmitStartResponse } from '@shared/contract/submit-box';
import { SUBMIT_TICKET_HEADER } from '@shared/contract/link-token';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService } from '@shared/crypto/service';
import { downloadE2eFile, openE2eDelivery, sendDelivery } from '@shared/transfer';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

// The submit box at levels 3 and 4 (issue 16 §1) against the real server (SQLite, or PostgreSQL
// with KUVERT_TEST_DATABASE_URL): the partner's "browser" (the product's CryptoService and
// transfer engine over the submit session) encrypts to the owner's SecuPass key with a throwaway
// SecuPass of the submitter account; the owner opens the submission and gets identical bytes.

let server: TestServer;
let owner: Session;
let ownerActor: E2eActor;
const OWNER = 'e2e-owner@example.test';
const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let counter = 0;
const partner = () => `e2e-partner-${++counter}@outside.test`;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: OWNER, firstName: 'Erin', lastName: 'Owner', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SUBMITBOX_OWNER'] });
  await createUserAsAdmin(server, admin, { email: 'member@example.test' });
  owner = await signIn(server, OWNER, 'Good-Passw0rd');
  ownerActor = await e2eActor(server, owner);
}, 60_000);
afterAll(() => server?.close());

async function box(changes: Record<string, unknown>): Promise<SubmitBox> {
  const response = await call(server, owner, 'PUT', api('/submit-box'), changes);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SubmitBox;
}

function bearerClient(token: string): ApiClient {
  return createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }) });
}

async function startWithTicket(boxUuid: string, email: string, message = ''): Promise<Response> {
  const seen = new Set((await readMailbox(server.mailboxDir)).map((m) => m.id));
  const asked = await fetch(`${server.url}${api(`/submit-boxes/${boxUuid}/tickets`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(asked.status, await asked.clone().text()).toBe(202);
  // This request's ticket mail (the address may have had others).
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => !seen.has(m.id) && addressedTo(email)(m) && m.text.includes(SUBMIT_TICKET_PAGE));
  const ticket = new URLSearchParams(extractLink(mail, SUBMIT_TICKET_PAGE).hash.slice(1)).get('ticket')!;
  return fetch(`${server.url}${api(SUBMIT_TICKET_PATHS.start)}`, { method: 'POST', headers: { 'content-type': 'application/json', [SUBMIT_TICKET_HEADER]: ticket }, body: JSON.stringify({ message }) });
}

async function started(boxUuid: string, email: string, message = ''): Promise<SubmitStartResponse> {
  const response = await startWithTicket(boxUuid, email, message);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as SubmitStartResponse;
}

/** What the ticket page does at levels 3/4: a throwaway SecuPass, then the ordinary E2E send. */
async function submitEncrypted(session: SubmitStartResponse, files: Array<{ name: string; bytes: Uint8Array }>, message?: { subject: string; body: string }) {
  const crypto = createCryptoService();
  const client = bearerClient(session.sessionToken);
  const { blob, keys } = await crypto.setupSecuPass({ userId: session.submitterUserUuid, passphrase: randomBytes(32).toString('base64url') });
  await putSubmitterKeys(client, session.deliveryUuid, { blob, publicKeys: blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })) });
  return sendDelivery({
    client,
    draft: { deliveryUuid: session.deliveryUuid },
    files: files.map((f) => ({ name: f.name, blob: new Blob([f.bytes as Uint8Array<ArrayBuffer>]) })),
    e2e: { crypto, keys, pins: new MemoryKeyPinStore() },
    ...(message ? { encryptedMessage: message } : {}),
  });
}

async function openAsOwner(deliveryUuid: string) {
  const opened = await openE2eDelivery({ client: ownerActor.client, deliveryUuid, e2e: e2eOf(ownerActor) });
  const contents = new Map<string, string>();
  for (const file of opened.files) {
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: ownerActor.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, server.url), fetch: ownerActor.fetch });
    contents.set(file.name, sha256(new Uint8Array(await blob.arrayBuffer())));
  }
  return { opened, contents };
}

describe('submit box at levels 3 and 4', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('the owner chooses an encrypted level only with an active SecuPass', async () => {
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3] }), 409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase);
    const unchanged = (await (await call(server, owner, 'GET', api('/submit-box'))).json()) as SubmitBox;
    expect(unchanged.allowedLevels).not.toContain(SECURITY_LEVELS.LEVEL_3);
    await giveSecuPass(ownerActor, 'Erin-SecuPass-Submit-Quartz-77');
    const chosen = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3] });
    expect(chosen).toMatchObject({ allowedLevels: [SECURITY_LEVELS.LEVEL_3], ownerHasPassphrase: true });
    const open = await fetch(`${server.url}${api(`/submit-boxes/${chosen.boxUuid}`)}`);
    expect(await open.json()).toEqual({ ownerName: 'Erin Owner', securityLevel: SECURITY_LEVELS.LEVEL_3 });
  }, 60_000);

  it('level 3: the partner encrypts, the server holds ciphertext only, the owner decrypts bit-exact', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3] });
    const email = partner();
    const session = await started(boxUuid, email, 'The signed contract, encrypted.');
    expect(session.securityLevel).toBe(SECURITY_LEVELS.LEVEL_3);

    // Plaintext into an encrypted box is refused by the server (a file without the E2E stream format).
    const plain = await fetch(`${server.url}${api(`/deliveries/${session.deliveryUuid}/files`)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.sessionToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'plain.txt', size: 13 }),
    });
    await expectBackendError(plain, 400, 'ValidationException');
    const draftFiles = await server.app.db.selectFrom('delivery_files as f').innerJoin('deliveries as d', 'd.id', 'f.delivery_id').select('f.id').where('d.uuid', '=', session.deliveryUuid).execute();
    expect(draftFiles).toHaveLength(0);

    const contract = randomBytes(300_000);
    const photo = randomBytes(1234);
    const result = await submitEncrypted(session, [
      { name: 'contract.pdf', bytes: contract },
      { name: 'photo.jpg', bytes: photo },
    ]);
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);

    // No plaintext on the server: the stored file bytes differ from the originals.
    const stored = await server.app.db.selectFrom('delivery_files as f').innerJoin('deliveries as d', 'd.id', 'f.delivery_id').select(['f.encrypted', 'f.size', 'd.security_level', 'd.body', 'd.status']).where('d.uuid', '=', session.deliveryUuid).execute();
    expect(stored.map((f) => f.encrypted)).toEqual([1, 1]);
    expect(stored[0]).toMatchObject({ security_level: SECURITY_LEVELS.LEVEL_3, status: 'sent' });

    const { opened, contents } = await openAsOwner(session.deliveryUuid);
    expect(opened.signer.email).toBe(email);
    expect(contents.get('contract.pdf')).toBe(sha256(contract));
    expect(contents.get('photo.jpg')).toBe(sha256(photo));
    await opened.close();
    // The owner was mailed like for any delivery (notification on by default).
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(OWNER)(m) && m.subject.includes(email));
  }, 60_000);

  it("the owner's mail names the submission in the owner's language, not the partner's", async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3] });
    const admin = await signInAdmin(server);
    const { uuid } = await server.app.db.selectFrom('users').select('uuid').where('email', '=', OWNER).executeTakeFirstOrThrow();
    const language = async (value: string) => expect((await call(server, admin, 'PATCH', api(`/admin/users/${uuid}`), { language: value })).status).toBe(200);
    await language('de');
    try {
      const email = partner();
      const session = await started(boxUuid, email);
      expect((await submitEncrypted(session, [{ name: 'vertrag.pdf', bytes: randomBytes(900) }])).ok).toBe(true);
      const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(OWNER)(m) && m.text.includes(session.deliveryUuid));
      expect(mail.subject).toBe(`${email} hat Ihnen eine sichere Zustellung gesendet: Submit-Box: Einsendung von ${email}`);
      // The delivery itself keeps the subject in the partner's language (the inbox row).
      const row = await server.app.db.selectFrom('deliveries').select('subject').where('uuid', '=', session.deliveryUuid).executeTakeFirstOrThrow();
      expect(row.subject).toBe(`Submit box: submission from ${email}`);
    } finally {
      await language('en');
    }
  }, 60_000);

  it('the same partner again: a fresh throwaway SecuPass; the owner still opens the first submission', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3] });
    const email = partner();
    const first = await started(boxUuid, email);
    const firstBytes = randomBytes(5000);
    expect((await submitEncrypted(first, [{ name: 'one.bin', bytes: firstBytes }])).ok).toBe(true);
    const second = await started(boxUuid, email);
    const secondBytes = randomBytes(7000);
    expect((await submitEncrypted(second, [{ name: 'two.bin', bytes: secondBytes }])).ok).toBe(true);
    // The owner's pin of the partner's first key meets a new key: the reader asks (confirmChangedKey).
    const confirm = { confirmChangedKey: async () => true };
    const a = await openE2eDelivery({ client: ownerActor.client, deliveryUuid: first.deliveryUuid, e2e: e2eOf(ownerActor, confirm) });
    expect(a.signer.keyRetired).toBe(true);
    await a.close();
    expect((await openAsOwner(second.deliveryUuid)).contents.get('two.bin')).toBe(sha256(secondBytes));
  }, 60_000);

  it('level 4: subject and message only inside the encrypted manifest', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4] });
    const email = partner();
    // The message goes into the manifest; the plain start refuses it.
    await expectBackendError(await startWithTicket(boxUuid, email, 'visible?'), 400, 'ValidationException');
    const sender = partner();
    const session = await started(boxUuid, sender);
    expect(session.securityLevel).toBe(SECURITY_LEVELS.LEVEL_4);
    const bytes = randomBytes(2000);
    const message = { subject: `Submit box: submission from ${sender}`, body: 'Only the owner reads this.' };
    const result = await submitEncrypted(session, [{ name: 'secret.bin', bytes }], message);
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    // The owner's mail names the submission although its stored subject is empty (issue 33 §2).
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(OWNER)(m) && m.text.includes(session.deliveryUuid));
    expect(mail.subject).toBe(`${sender} sent you a secure delivery: Submit box: submission from ${sender}`);
    const row = await server.app.db.selectFrom('deliveries').select(['subject', 'body']).where('uuid', '=', session.deliveryUuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ subject: '', body: '' });
    const { opened, contents } = await openAsOwner(session.deliveryUuid);
    expect(opened.message).toEqual(message);
    expect(contents.get('secret.bin')).toBe(sha256(bytes));
    await opened.close();
  }, 60_000);

  it('the submit session reaches its own draft only; an address with an account is refused; the owner without SecuPass stops the box', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_3] });
    const session = await started(boxUuid, partner());
    const other = await started(boxUuid, partner());
    const crypto = createCryptoService();
    const { blob } = await crypto.setupSecuPass({ userId: session.submitterUserUuid, passphrase: randomBytes(32).toString('base64url') });
    const body = { blob, publicKeys: blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })) };
    const put = (token: string, deliveryUuid: string, payload: unknown = body) =>
      fetch(`${server.url}${api(`/submit-box/deliveries/${deliveryUuid}/keys`)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    await expectBackendError(await put(session.sessionToken, other.deliveryUuid), 403, 'AccessDeniedException');
    await expectBackendError(await put(session.sessionToken, session.deliveryUuid, { blob: { version: 3 }, publicKeys: [] }), 400, 'ValidationException');
    expect((await call(server, owner, 'PUT', api(`/submit-box/deliveries/${session.deliveryUuid}/keys`), body)).status).toBe(403);
    expect((await put(session.sessionToken, session.deliveryUuid)).status).toBe(204);

    // member@example.test has an account of its own: its keys are not the box's to replace.
    await expectBackendError(await startWithTicket(boxUuid, 'member@example.test'), 409, SUBMIT_BOX_ERRORS.encryptedUnavailable);

    // The owner's SecuPass reset: the box takes nothing (only encrypted levels chosen).
    const admin = await signInAdmin(server);
    const reset = await call(server, admin, 'POST', api(`/admin/users/${ownerActor.userUuid}/secupass/reset`), {});
    expect(reset.status, await reset.clone().text()).toBe(204);
    await expectBackendError(await fetch(`${server.url}${api(`/submit-boxes/${boxUuid}`)}`), 409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase);
  }, 60_000);
});
