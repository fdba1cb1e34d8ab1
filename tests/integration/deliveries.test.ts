import { createHash, randomBytes } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { DELIVERY_SETTING_KEYS, type DeliveryDetail, type DeliveryPage, type DeliveryUploadFile, type PartsResponse } from '@shared/contract/deliveries';
import { SETTING_KEYS } from '@shared/contract/settings';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail, type MailboxMail } from '@tests/support/mailbox';
import { DRAFT_MAX_AGE_MS, sweepDeliveries } from '@server/deliveries/cleanup';
import { ShareProofJar } from '@tests/support/share-proof';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXE_HEADER, LNK_HEADER } from '@server/uploads/content-type.test-helper';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/** Small parts so a few KiB make several (the config minimum). */
const PART_SIZE = 1024;

let server: TestServer;
let admin: Session;
let alice: Session; // sender
let bob: Session; // registered recipient (German)
let carol: Session; // someone else
/** The level-1 email prompt's proofs, kept like a browser keeps cookies. */
let jar: ShareProofJar;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const api = (path: string) => `/api/2${path}`;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  jar = new ShareProofJar(server.url);
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test', firstName: 'Alice', lastName: 'Sender' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test', language: 'de' });
  await createUserAsAdmin(server, admin, { email: 'carol@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
  bob = await signIn(server, 'bob@example.test', 'Good-Passw0rd');
  carol = await signIn(server, 'carol@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const draftBody = (overrides: Record<string, unknown> = {}) => ({
  recipients: ['bob@example.test'],
  subject: 'Quarterly figures',
  body: 'Please find the figures attached.',
  securityLevel: 0,
  ...overrides,
});

async function createDraft(session: Session, overrides: Record<string, unknown> = {}): Promise<DeliveryDetail> {
  return json<DeliveryDetail>(await call(server, session, 'POST', api('/deliveries'), draftBody(overrides)), 201);
}

function putPart(session: Session | null, deliveryUuid: string, fileId: string, index: number, bytes: Uint8Array, hash = sha256(bytes)) {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'x-content-sha256': hash };
  if (session) {
    headers.cookie = session.cookie;
    headers[ANTI_CSRF_HEADER] = session.csrf;
  }
  return fetch(`${server.url}${api(`/deliveries/${deliveryUuid}/files/${fileId}/parts/${index}`)}`, { method: 'PUT', headers, body: new Blob([Uint8Array.from(bytes)]) });
}

async function addFile(session: Session, deliveryUuid: string, name: string, size: number, mimeType = 'application/pdf') {
  return call(server, session, 'POST', api(`/deliveries/${deliveryUuid}/files`), { name, size, mimeType });
}

/** Announce, upload every part, commit. */
async function uploadFile(session: Session, deliveryUuid: string, name: string, bytes: Uint8Array): Promise<DeliveryUploadFile> {
  const file = await json<DeliveryUploadFile>(await addFile(session, deliveryUuid, name, bytes.length), 201);
  for (let i = 0; i < file.partCount; i++) {
    const response = await putPart(session, deliveryUuid, file.fileId, i, bytes.subarray(i * file.partSize, (i + 1) * file.partSize));
    expect(response.status, await response.clone().text()).toBe(200);
  }
  return json<DeliveryUploadFile>(await call(server, session, 'POST', api(`/deliveries/${deliveryUuid}/files/${file.fileId}/commit`)), 200);
}

async function send(session: Session, deliveryUuid: string): Promise<DeliveryDetail> {
  return json<DeliveryDetail>(await call(server, session, 'POST', api(`/deliveries/${deliveryUuid}/send`)), 200);
}

/** A sent level-1 delivery with one file, and the token from its mail to `to`. */
async function sentLevel1(subject: string, to: string, bytes = testFileBytes(1500)) {
  const draft = await createDraft(alice, { subject, recipients: [to] });
  const file = await uploadFile(alice, draft.deliveryUuid, 'data.bin', bytes);
  await send(alice, draft.deliveryUuid);
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(to)(m) && m.subject.includes(subject));
  expect(await jar.confirm(extractLink(mail, '/secumails/'), to)).toBe(200);
  return { deliveryUuid: draft.deliveryUuid, fileId: file.fileId, bytes, token: tokenFrom(mail), mail };
}

function tokenFrom(mail: MailboxMail): string {
  const link = extractLink(mail, '/secumails/');
  const token = new URLSearchParams(link.hash.slice(1)).get('token');
  expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/); // ≥ 256 bits base64url
  return token!;
}

const contentPath = (deliveryUuid: string, fileId: string, token?: string) =>
  api(`/deliveries/${deliveryUuid}/files/${fileId}/content${token ? `?token=${encodeURIComponent(token)}` : ''}`);

async function download(path: string, session: Session | null = null, headers: Record<string, string> = {}) {
  const response = await jar.fetch(`${server.url}${path}`, { headers: { ...headers, ...(session ? { cookie: session.cookie } : {}) } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

it('runs on the database the environment asks for', () => {
  expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
});

describe('level 1: secure link', () => {
  it('draft → file in parts (one retried) → commit → send → mail with token → anonymous, bit-identical download with ranges', async () => {
    const subject = 'L1 full flow';
    const draft = await createDraft(alice, { subject, recipients: ['outside@partner.test', 'bob@example.test'], additionalRecipients: ['cc@partner.test'] });
    expect(draft.status).toBe('draft');
    expect(draft.securityLevel).toBe(0);
    expect(draft.validityDays).toBe(90);

    const bytes = testFileBytes(2500); // 1024 + 1024 + 452
    const file = await json<DeliveryUploadFile>(await addFile(alice, draft.deliveryUuid, 'Bericht März.pdf', bytes.length), 201);
    expect(file).toMatchObject({ partSize: PART_SIZE, partCount: 3, status: 'uploading' });
    const part = (i: number) => bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE);

    expect((await putPart(alice, draft.deliveryUuid, file.fileId, 0, part(0))).status).toBe(200);
    expect((await putPart(alice, draft.deliveryUuid, file.fileId, 1, part(1))).status).toBe(200);
    // The same part again (a retry after a lost answer): 200, nothing changes.
    const retry = await json<{ index: number; sha256: string }>(await putPart(alice, draft.deliveryUuid, file.fileId, 1, part(1)), 200);
    expect(retry).toMatchObject({ index: 1, sha256: sha256(part(1)) });
    // A body that does not match its hash is refused and not stored.
    const corrupt = Uint8Array.from(part(2));
    corrupt[0] = corrupt[0]! ^ 0xff;
    const mismatch = await expectBackendError(await putPart(alice, draft.deliveryUuid, file.fileId, 2, corrupt, sha256(part(2))), 400, 'ValidationException');
    expect(mismatch.metadata.reason).toBe('sha256Mismatch');

    const partsBefore = await json<PartsResponse>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/parts`)), 200);
    expect(partsBefore.parts.map((p) => p.index)).toEqual([0, 1]);
    // Not complete: no commit, and nothing downloadable, not even for the sender.
    const incomplete = await expectBackendError(await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/commit`)), 400);
    expect(incomplete.metadata).toMatchObject({ reason: 'uploadIncomplete', missing: [2] });
    expect((await download(contentPath(draft.deliveryUuid, file.fileId), alice)).response.status).toBe(404);

    expect((await putPart(alice, draft.deliveryUuid, file.fileId, 2, part(2))).status).toBe(200);
    // Complete but not committed: still not downloadable.
    expect((await download(contentPath(draft.deliveryUuid, file.fileId), alice)).response.status).toBe(404);
    const committed = await json<DeliveryUploadFile>(await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/commit`)), 200);
    expect(committed.status).toBe('committed');
    // Committed parts cannot change.
    await expectBackendError(await putPart(alice, draft.deliveryUuid, file.fileId, 2, corrupt), 409, 'ConflictException');

    const sent = await send(alice, draft.deliveryUuid);
    expect(sent.status).toBe('sent');
    expect(sent.timeState).toBe('valid');
    expect(sent.expiresAt! - sent.sentAt!).toBe(90 * 86_400_000);
    // Sending twice is refused.
    await expectBackendError(await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)), 409);

    // Every recipient gets a mail in their language with their own link.
    const outside = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('outside@partner.test')(m) && m.subject.includes(subject));
    expect(outside.subject).toBe(`Alice Sender sent you a secure delivery: ${subject}`);
    expect(outside.html).toContain('#token=');
    const bobMail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes(subject));
    expect(bobMail.subject).toContain('hat Ihnen eine sichere Zustellung gesendet');
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('cc@partner.test')(m) && m.subject.includes(subject));
    const token = tokenFrom(outside);
    expect(tokenFrom(bobMail)).not.toBe(token);
    const link = extractLink(outside, '/secumails/');
    // Link holders start at the email prompt of their share (tests/integration/external-recipient.test.ts).
    const detail = await json<DeliveryDetail>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}`)), 200);
    const share = detail.recipients.find((r) => r.email === 'outside@partner.test')!.shareUuid;
    expect(link.pathname).toMatch(new RegExp(`^/secumails/(de|en|fr)/email-prompt/${share}$`));

    // The token alone is not enough: the email prompt proves the address first (share-proof.ts).
    const unconfirmed = await expectBackendError(await fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}?token=${token}`)}`), 403, 'AccessDeniedException');
    expect(unconfirmed.metadata).toMatchObject({ reason: 'emailConfirmationRequired' });
    expect(await jar.confirm(link, 'Outside@Partner.test')).toBe(200);
    // Anonymous with the token and the proof: the delivery and the bytes.
    const view = await json<DeliveryDetail>(await jar.fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}?token=${token}`)}`), 200);
    expect(view).toMatchObject({ viewer: 'token', subject, body: 'Please find the figures attached.' });
    expect(view.files).toEqual([expect.objectContaining({ fileId: file.fileId, name: 'Bericht März.pdf', size: 2500 })]);
    // A token holder does not see the additional recipients or others' progress.
    expect(view.recipients.map((r) => r.email).sort()).toEqual(['bob@example.test', 'outside@partner.test']);
    // The header works as well as the query.
    expect((await jar.fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}`)}`, { headers: { 'x-delivery-token': token } })).status).toBe(200);

    // Ranges first (they do not count as the download unless they reach the end).
    const slice = await download(contentPath(draft.deliveryUuid, file.fileId, token), null, { range: 'bytes=1000-1100' });
    expect(slice.response.status).toBe(206);
    expect(slice.response.headers.get('content-range')).toBe('bytes 1000-1100/2500');
    expect(Buffer.from(slice.bytes).equals(bytes.subarray(1000, 1101))).toBe(true);
    const tail = await download(contentPath(draft.deliveryUuid, file.fileId, token), null, { range: 'bytes=-10' });
    expect(tail.response.status).toBe(206);
    expect(Buffer.from(tail.bytes).equals(bytes.subarray(2490))).toBe(true);
    const open = await download(contentPath(draft.deliveryUuid, file.fileId, token), null, { range: 'bytes=2048-' });
    expect(Buffer.from(open.bytes).equals(bytes.subarray(2048))).toBe(true);
    const bad = await download(contentPath(draft.deliveryUuid, file.fileId, token), null, { range: 'bytes=2500-' });
    expect(bad.response.status).toBe(416);
    expect(bad.response.headers.get('content-range')).toBe('bytes */2500');
    expect((await download(contentPath(draft.deliveryUuid, file.fileId, token), null, { range: 'bytes=abc' })).response.status).toBe(416);

    const whole = await download(contentPath(draft.deliveryUuid, file.fileId, token));
    expect(whole.response.status).toBe(200);
    expect(whole.response.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.response.headers.get('content-disposition')).toContain("filename*=UTF-8''Bericht%20M%C3%A4rz.pdf");
    expect(sha256(whole.bytes)).toBe(sha256(bytes));

    // The sender sees who downloaded (only the token's recipient so far).
    await expect
      .poll(async () => {
        const detail = await json<DeliveryDetail>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}`)), 200);
        return detail.recipients.filter((r) => r.downloadedAt !== null).map((r) => r.email);
      })
      .toEqual(['outside@partner.test']);
    const log = await json<{ entries: { kind: string; actor: string | null }[] }>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}/activity`)), 200);
    expect(log.entries.map((e) => e.kind)).toEqual(expect.arrayContaining(['created', 'fileCommitted', 'sent', 'notified', 'downloaded']));
    expect(log.entries.find((e) => e.kind === 'downloaded')?.actor).toBe('outside@partner.test');
    // The sender gets a receipt for the first complete download of each recipient.
    const receipt = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && m.subject.includes(subject));
    expect(receipt.subject).toBe(`Kuvert: outside@partner.test downloaded "${subject}"`);
    expect(receipt.text).toContain('Bericht März.pdf');
  });

  it('a message without files is fine; the token of one recipient does not open another delivery', async () => {
    const a = await sentLevel1('L1 token A', 'ta@partner.test');
    const b = await sentLevel1('L1 token B', 'tb@partner.test');
    expect((await download(contentPath(a.deliveryUuid, a.fileId, a.token))).response.status).toBe(200);
    await expectBackendError(await jar.fetch(`${server.url}${contentPath(a.deliveryUuid, a.fileId, b.token)}`), 404, 'NotFoundException');
    await expectBackendError(await jar.fetch(`${server.url}${api(`/deliveries/${a.deliveryUuid}?token=${b.token}`)}`), 404);
    await expectBackendError(await jar.fetch(`${server.url}${api(`/deliveries/${a.deliveryUuid}?token=nonsense`)}`), 404);
    await expectBackendError(await jar.fetch(`${server.url}${api(`/deliveries/${a.deliveryUuid}`)}`), 401, 'AuthenticationRequiredException');

    const textOnly = await createDraft(alice, { subject: 'Just a note', recipients: ['note@partner.test'] });
    expect((await send(alice, textOnly.deliveryUuid)).fileCount).toBe(0);
  });

  it('resending a notification issues a fresh link; the old one stops working', async () => {
    const sent = await sentLevel1('L1 resend', 'resend@partner.test');
    const answer = await json<{ notified: string[] }>(await call(server, alice, 'POST', api(`/deliveries/${sent.deliveryUuid}/resend-notification`), {}), 200);
    expect(answer.notified).toEqual(['resend@partner.test']);
    await expect.poll(async () => (await readMailbox(server.mailboxDir)).filter(addressedTo('resend@partner.test')).length).toBe(2);
    const mails = (await readMailbox(server.mailboxDir)).filter(addressedTo('resend@partner.test'));
    const fresh = mails.map(tokenFrom).find((t) => t !== sent.token)!;
    expect((await download(contentPath(sent.deliveryUuid, sent.fileId, fresh))).response.status).toBe(200);
    expect((await download(contentPath(sent.deliveryUuid, sent.fileId, sent.token))).response.status).toBe(404);
    // Only the sender may resend.
    await expectBackendError(await call(server, carol, 'POST', api(`/deliveries/${sent.deliveryUuid}/resend-notification`), {}), 404);
  });
});

describe('time states', () => {
  it('an expired delivery is listed as expired, its files are no longer served, and it cannot be notified again', async () => {
    const sent = await sentLevel1('Soon gone', 'expire@partner.test');
    const now = Date.now();
    await server.app.db.updateTable('deliveries').set({ expires_at: now + 60_000 }).where('uuid', '=', sent.deliveryUuid).execute();
    expect((await json<DeliveryDetail>(await call(server, alice, 'GET', api(`/deliveries/${sent.deliveryUuid}`)), 200)).timeState).toBe('expiringSoon');
    await server.app.db.updateTable('deliveries').set({ expires_at: now - 1 }).where('uuid', '=', sent.deliveryUuid).execute();
    const view = await json<DeliveryDetail>(await jar.fetch(`${server.url}${api(`/deliveries/${sent.deliveryUuid}?token=${sent.token}`)}`), 200);
    expect(view.timeState).toBe('expired');
    await expectBackendError(await jar.fetch(`${server.url}${contentPath(sent.deliveryUuid, sent.fileId, sent.token)}`), 404);
    await expectBackendError(await call(server, alice, 'POST', api(`/deliveries/${sent.deliveryUuid}/resend-notification`), {}), 409, 'ConflictException');

    // The sweep frees the bytes of expired deliveries and drops abandoned drafts; the expired row stays listed.
    const abandoned = await createDraft(alice, { subject: 'Abandoned draft' });
    const abandonedFile = await json<DeliveryUploadFile>(await addFile(alice, abandoned.deliveryUuid, 'a.bin', 100), 201);
    expect((await putPart(alice, abandoned.deliveryUuid, abandonedFile.fileId, 0, testFileBytes(100))).status).toBe(200);
    expect(await server.app.blobs.exists(`deliveries/${sent.deliveryUuid}/${sent.fileId}/0`)).toBe(true);
    await sweepDeliveries(server.app, Date.now() + DRAFT_MAX_AGE_MS + 1000);
    expect(await server.app.blobs.exists(`deliveries/${sent.deliveryUuid}/${sent.fileId}/0`)).toBe(false);
    expect(await server.app.blobs.exists(`deliveries/${abandoned.deliveryUuid}/${abandonedFile.fileId}/0`)).toBe(false);
    await expectBackendError(await call(server, alice, 'GET', api(`/deliveries/${abandoned.deliveryUuid}`)), 404);
    expect((await json<DeliveryDetail>(await call(server, alice, 'GET', api(`/deliveries/${sent.deliveryUuid}`)), 200)).timeState).toBe('expired');
    await expectBackendError(await call(server, alice, 'GET', contentPath(sent.deliveryUuid, sent.fileId)), 404);
  });
});

describe('streamed parts', () => {
  it('a chunked body longer than its part is cut off and refused, and nothing is stored', async () => {
    const draft = await createDraft(alice, { subject: 'Streamed' });
    const file = await json<DeliveryUploadFile>(await addFile(alice, draft.deliveryUuid, 's.bin', 2 * PART_SIZE), 201);
    const chunk = new Uint8Array(512).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than a part, without a Content-Length: the server must stop reading on its own.
        if (sent >= 64) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await jar.fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/parts/0`)}`, {
      method: 'PUT',
      headers: { cookie: alice.cookie, [ANTI_CSRF_HEADER]: alice.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(new Uint8Array(PART_SIZE)) },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => null);
    // Either the error object, or the connection closed while the client was still sending.
    if (response) expect((await expectBackendError(response, 400)).metadata.reason).toBe('partSizeMismatch');
    const parts = await json<PartsResponse>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/parts`)), 200);
    expect(parts.parts).toEqual([]);
    expect(await server.app.blobs.exists(`deliveries/${draft.deliveryUuid}/${file.fileId}/0`)).toBe(false);
  });
});

describe('level 2: login', () => {
  it('anonymous → 401, another user → 404, the signed-in recipient → the bytes; the mail points at the inbox', async () => {
    const subject = 'L2 login only';
    const draft = await createDraft(alice, { subject, securityLevel: 10 });
    const bytes = testFileBytes(3000);
    const file = await uploadFile(alice, draft.deliveryUuid, 'contract.pdf', bytes);
    await send(alice, draft.deliveryUuid);
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes(subject));
    const link = extractLink(mail, '/secumails/inbox/');
    expect(link.pathname).toBe(`/secumails/inbox/${draft.deliveryUuid}`);
    expect(link.hash).toBe('');

    await expectBackendError(await jar.fetch(`${server.url}${contentPath(draft.deliveryUuid, file.fileId)}`), 401, 'AuthenticationRequiredException');
    await expectBackendError(await jar.fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}`)}`), 401);
    // A level-1 token does not open a level-2 delivery.
    const other = await sentLevel1('L1 for L2 check', 'l2check@partner.test');
    await expectBackendError(await jar.fetch(`${server.url}${contentPath(draft.deliveryUuid, file.fileId, other.token)}`), 401);
    await expectBackendError(await call(server, carol, 'GET', contentPath(draft.deliveryUuid, file.fileId)), 404, 'NotFoundException');
    await expectBackendError(await call(server, carol, 'GET', api(`/deliveries/${draft.deliveryUuid}`)), 404);

    const inboxBefore = await json<DeliveryPage>(await call(server, bob, 'GET', api(`/deliveries/inbox?filter=notDownloaded&q=${encodeURIComponent('L2 login')}`)), 200);
    expect(inboxBefore.items.map((i) => i.deliveryUuid)).toEqual([draft.deliveryUuid]);

    const got = await download(contentPath(draft.deliveryUuid, file.fileId), bob);
    expect(got.response.status).toBe(200);
    expect(sha256(got.bytes)).toBe(sha256(bytes));
    const detail = await json<DeliveryDetail>(await call(server, bob, 'GET', api(`/deliveries/${draft.deliveryUuid}`)), 200);
    expect(detail.viewer).toBe('recipient');

    await expect
      .poll(async () => (await json<DeliveryPage>(await call(server, bob, 'GET', api(`/deliveries/inbox?filter=notDownloaded&q=${encodeURIComponent('L2 login')}`)), 200)).total)
      .toBe(0);
    const all = await json<DeliveryPage>(await call(server, bob, 'GET', api(`/deliveries/inbox?q=${encodeURIComponent('L2 login')}`)), 200);
    expect(all.items[0]).toMatchObject({ deliveryUuid: draft.deliveryUuid, downloaded: true, fileCount: 1, totalSize: 3000 });
  });
});

describe('§5 rules answered with their §8 classes', () => {
  const create = (overrides: Record<string, unknown>) => call(server, alice, 'POST', api('/deliveries'), draftBody(overrides));

  it('recipients, subject, body, validity and level', async () => {
    expect((await expectBackendError(await create({ recipients: [] }), 400, 'ValidationException')).metadata.field).toBe('recipients');
    expect((await expectBackendError(await create({ subject: '  ' }), 400, 'ValidationException')).metadata.field).toBe('subject');
    const invalid = await expectBackendError(await create({ recipients: ['bob@example.test', 'not-an-address'] }), 400, 'ValidationException');
    expect(invalid.metadata).toMatchObject({ reason: 'invalidEmail', invalid: ['not-an-address'] });
    expect((await expectBackendError(await create({ additionalRecipients: ['x@'] }), 400)).metadata.field).toBe('additionalRecipients');
    expect((await expectBackendError(await create({ subject: 's'.repeat(256) }), 400, 'MaxSubjectLengthException')).metadata).toEqual({ maxLength: 255, length: 256 });
    expect((await expectBackendError(await create({ body: 'b'.repeat(100_001) }), 400, 'MaxBodyLengthException')).metadata).toEqual({ maxLength: 100_000, length: 100_001 });
    // Defaults: cleanup 1 day … 365 days.
    expect((await expectBackendError(await create({ validityDays: 0 }), 400)).metadata).toMatchObject({ reason: 'outOfRange', min: 1, max: 365 });
    expect((await expectBackendError(await create({ validityDays: 366 }), 400)).metadata).toMatchObject({ min: 1, max: 365 });
    expect((await json<DeliveryDetail>(await create({ validityDays: 365 }), 201)).validityDays).toBe(365);
    // Bounds in ms are rounded up to days: 1.5 days → 2, 10.2 days → 11.
    await updateSettings(server, admin, { [SETTING_KEYS.deliveryCleanupExpirationMin]: 1.5 * 86_400_000, [SETTING_KEYS.deliveryCleanupExpirationMax]: 10.2 * 86_400_000 });
    try {
      expect((await expectBackendError(await create({ validityDays: 1 }), 400)).metadata).toMatchObject({ min: 2, max: 11 });
      expect((await json<DeliveryDetail>(await create({ validityDays: 11 }), 201)).validityDays).toBe(11);
      expect((await json<DeliveryDetail>(await create({}), 201)).validityDays).toBe(11); // 90 held within the bounds
    } finally {
      await updateSettings(server, admin, { [SETTING_KEYS.deliveryCleanupExpirationMin]: 86_400_000, [SETTING_KEYS.deliveryCleanupExpirationMax]: 365 * 86_400_000 });
    }

    await updateSettings(server, admin, { [SETTING_KEYS.allowSecurityLevel1]: false });
    try {
      expect((await expectBackendError(await create({ securityLevel: 0 }), 400, 'ValidationException')).metadata).toMatchObject({ reason: 'notAllowed', allowed: [10, 20, 30] });
      // Omitted: the minimal allowed level.
      expect((await json<DeliveryDetail>(await create({ securityLevel: undefined }), 201)).securityLevel).toBe(10);
    } finally {
      await updateSettings(server, admin, { [SETTING_KEYS.allowSecurityLevel1]: true });
    }
    await expectBackendError(await create({ securityLevel: 5 }), 400, 'ValidationException');
  });

  it('banned recipients → RecipientNotAllowedException, at create, update and send', async () => {
    const draft = await createDraft(alice, { subject: 'Ban check', recipients: ['ok@partner.test'] });
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.bannedRecipients]: 'evil@partner.test, @banned.test' });
    try {
      const banned = await expectBackendError(await create({ recipients: ['EVIL@partner.test', 'x@banned.test', 'fine@partner.test'] }), 400, 'RecipientNotAllowedException');
      expect(banned.metadata).toEqual({ recipients: ['evil@partner.test', 'x@banned.test'] });
      await expectBackendError(await call(server, alice, 'PATCH', api(`/deliveries/${draft.deliveryUuid}`), { additionalRecipients: ['y@banned.test'] }), 400, 'RecipientNotAllowedException');
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.bannedRecipients]: 'ok@partner.test' });
      // Banned after the draft was made: the send refuses it.
      await expectBackendError(await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)), 400, 'RecipientNotAllowedException');
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.bannedRecipients]: '' });
    }
  });

  it('a draft can be changed until it is sent, with the same checks', async () => {
    const draft = await createDraft(alice, { subject: 'Before', recipients: ['one@partner.test'] });
    const path = api(`/deliveries/${draft.deliveryUuid}`);
    const changed = await json<DeliveryDetail>(await call(server, alice, 'PATCH', path, { subject: 'After', recipients: ['two@partner.test'], validityDays: 7, securityLevel: 10 }), 200);
    expect(changed).toMatchObject({ subject: 'After', validityDays: 7, securityLevel: 10, body: draft.body });
    expect(changed.recipients.map((r) => r.email)).toEqual(['two@partner.test']);
    await expectBackendError(await call(server, alice, 'PATCH', path, { subject: 'x'.repeat(300) }), 400, 'MaxSubjectLengthException');
    await expectBackendError(await call(server, alice, 'PATCH', path, { recipients: [] }), 400, 'ValidationException');
    await expectBackendError(await call(server, carol, 'PATCH', path, { subject: 'Mine now' }), 404);
    await send(alice, draft.deliveryUuid);
    await expectBackendError(await call(server, alice, 'PATCH', path, { subject: 'Too late' }), 409, 'ConflictException');
  });

  it('no files and no message → DeliveryWithoutFilesNotAllowedException', async () => {
    const draft = await createDraft(alice, { body: '', subject: 'Empty' });
    await expectBackendError(await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)), 400, 'DeliveryWithoutFilesNotAllowedException');
  });

  it('file names, sizes and types', async () => {
    const draft = await createDraft(alice, { subject: 'File rules' });
    const d = draft.deliveryUuid;
    await json(await addFile(alice, d, 'report.pdf', 10), 201);
    expect((await expectBackendError(await addFile(alice, d, 'REPORT.pdf', 10), 400, 'ValidationException')).metadata.reason).toBe('duplicateFileName');
    expect((await expectBackendError(await addFile(alice, d, 'empty.txt', 0), 400, 'ValidationException')).metadata.reason).toBe('zeroByteFile');
    for (const name of ['a/b.txt', 'a:b.txt', 'what?.txt', 'tab\there.txt', 'trailing.', '']) {
      expect((await expectBackendError(await addFile(alice, d, name, 10), 400, 'ValidationException')).metadata.reason, name).toBe('invalidFileName');
    }
    const exe = await expectBackendError(await addFile(alice, d, 'setup.EXE', 10), 400, 'FileNotAllowedException');
    expect(exe.metadata).toMatchObject({ extension: 'exe' });
    await expectBackendError(await addFile(alice, d, 'script.js', 10, 'text/javascript'), 400, 'FileNotAllowedException');
    await expectBackendError(await addFile(alice, d, 'innocent.bin', 10, 'application/x-msdownload'), 400, 'FileNotAllowedException');
    // The list is a setting.
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.blockedExtensions]: 'docm', [DELIVERY_SETTING_KEYS.blockedMimeTypes]: 'video/*' });
    try {
      await json(await addFile(alice, d, 'setup.exe', 10), 201);
      await expectBackendError(await addFile(alice, d, 'macro.docm', 10), 400, 'FileNotAllowedException');
      await expectBackendError(await addFile(alice, d, 'clip.bin', 10, 'video/mp4'), 400, 'FileNotAllowedException');
    } finally {
      await updateSettings(server, admin, {
        [DELIVERY_SETTING_KEYS.blockedExtensions]: 'exe,bat,cmd,com,scr,pif,js,jse,vbs,vbe,wsf,wsh,msi,msc,ps1,hta,cpl,jar,lnk,reg',
        [DELIVERY_SETTING_KEYS.blockedMimeTypes]: 'application/x-msdownload',
      });
    }
  });

  it('types from the bytes (file-type): a blocked program under an innocent name and type is refused at commit; a PDF commits; an active declared type is downloaded as octet-stream', async () => {
    const draft = await createDraft(alice, { subject: 'Types from bytes', recipients: ['bob@example.test'] });
    const d = draft.deliveryUuid;
    /** Announce as `name`/`mimeType`, upload `bytes`, and answer the commit's response. */
    const uploadAs = async (name: string, mimeType: string, bytes: Uint8Array) => {
      const file = await json<DeliveryUploadFile>(await addFile(alice, d, name, bytes.length, mimeType), 201);
      for (let i = 0; i < file.partCount; i++) expect((await putPart(alice, d, file.fileId, i, bytes.subarray(i * file.partSize, (i + 1) * file.partSize))).status).toBe(200);
      return { file, commit: () => call(server, alice, 'POST', api(`/deliveries/${d}/files/${file.fileId}/commit`)) };
    };
    const program = Buffer.concat([EXE_HEADER, randomBytes(3000)]);
    const disguised = await uploadAs('report.pdf', 'application/pdf', program);
    // Another user cannot commit it (nor learn why it would be refused).
    await expectBackendError(await call(server, carol, 'POST', api(`/deliveries/${d}/files/${disguised.file.fileId}/commit`)), 404);
    const refused = await expectBackendError(await disguised.commit(), 400, 'FileNotAllowedException');
    expect(refused.metadata).toEqual({ name: 'report.pdf', extension: 'exe', mimeType: 'application/x-msdownload', reason: 'blockedContent' });
    const shortcut = await uploadAs('notes.txt', 'text/plain', Buffer.concat([LNK_HEADER, randomBytes(200)]));
    expect((await expectBackendError(await shortcut.commit(), 400, 'FileNotAllowedException')).metadata).toMatchObject({ extension: 'lnk', reason: 'blockedContent' });
    await call(server, alice, 'DELETE', api(`/deliveries/${d}/files/${disguised.file.fileId}`));
    await call(server, alice, 'DELETE', api(`/deliveries/${d}/files/${shortcut.file.fileId}`));

    const pdf = await uploadAs('real.pdf', 'application/pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1500)]));
    expect((await pdf.commit()).status).toBe(200);
    const page = await uploadAs('page.html', 'text/html', Buffer.from('<!doctype html><script>alert(document.cookie)</script>'));
    expect((await page.commit()).status).toBe(200);
    await send(alice, d);
    const { response } = await download(contentPath(d, page.file.fileId), alice);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await download(contentPath(d, pdf.file.fileId), alice)).response.headers.get('content-type')).toBe('application/pdf');
  });

  it('size limit per account and the global quota, before any byte is accepted', async () => {
    const draft = await createDraft(alice, { subject: 'Quota rules' });
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 3000 });
    try {
      await json(await addFile(alice, draft.deliveryUuid, 'one.bin', 2000), 201);
      const over = await expectBackendError(await addFile(alice, draft.deliveryUuid, 'two.bin', 2000), 413, 'MaxUploadSizeExceededException');
      expect(over.metadata).toEqual({ maxUploadSize: 3000, currentSize: 2000, requestedSize: 4000 });
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 10 * 1024 ** 3 });
    }
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 1 });
    try {
      const full = await expectBackendError(await addFile(alice, draft.deliveryUuid, 'three.bin', 100), 507, 'GlobalQuotaReachedException');
      expect(full.metadata).toEqual({ spaceAvailable: 0, spaceRequired: 100 });
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 0 });
    }
  });

  it('parts: exact sizes, hashes, indexes; send refuses unfinished files', async () => {
    const draft = await createDraft(alice, { subject: 'Part rules' });
    const file = await json<DeliveryUploadFile>(await addFile(alice, draft.deliveryUuid, 'p.bin', 1500), 201);
    const short = testFileBytes(1000);
    expect((await expectBackendError(await putPart(alice, draft.deliveryUuid, file.fileId, 0, short), 400)).metadata.reason).toBe('partSizeMismatch');
    expect((await expectBackendError(await putPart(alice, draft.deliveryUuid, file.fileId, 2, testFileBytes(10)), 400)).metadata.reason).toBe('partIndexOutOfRange');
    expect((await expectBackendError(await putPart(alice, draft.deliveryUuid, file.fileId, 0, testFileBytes(PART_SIZE), 'zz'), 400)).metadata.reason).toBe('missingSha256');
    // Other body types are not accepted for parts.
    const asJson = await call(server, alice, 'PUT', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/parts/0`), { x: 1 });
    expect([400, 415]).toContain(asJson.status);
    expect((await putPart(alice, draft.deliveryUuid, file.fileId, 0, testFileBytes(PART_SIZE))).status).toBe(200);
    const unfinished = await expectBackendError(await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)), 400);
    expect(unfinished.metadata).toMatchObject({ reason: 'uploadIncomplete', files: ['p.bin'] });
    // Dropping the file makes the draft sendable (it has a message).
    expect((await call(server, alice, 'DELETE', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}`))).status).toBe(204);
    await send(alice, draft.deliveryUuid);
  });
});

describe('authorisation matrix', () => {
  it('every delivery route as anonymous, as another user and with another delivery’s token: 401/403/404, never the data', async () => {
    const target = await sentLevel1('Matrix target SECRET-SUBJECT', 'matrix@partner.test', testFileBytes(1200));
    const foreign = await sentLevel1('Matrix foreign', 'matrix2@partner.test');
    const draft = await createDraft(alice, { subject: 'Matrix draft SECRET-SUBJECT' });
    const draftFile = await json<DeliveryUploadFile>(await addFile(alice, draft.deliveryUuid, 'x.bin', 100), 201);

    const d = target.deliveryUuid;
    const f = target.fileId;
    const routes: { method: string; path: string; body?: unknown; octet?: boolean }[] = [
      { method: 'GET', path: `/deliveries/${d}` },
      { method: 'GET', path: `/deliveries/${d}/files/${f}/content` },
      { method: 'DELETE', path: `/deliveries/${d}` },
      { method: 'GET', path: `/deliveries/${d}/activity` },
      { method: 'POST', path: `/deliveries/${d}/resend-notification`, body: {} },
      { method: 'POST', path: `/deliveries/${d}/send` },
      { method: 'GET', path: `/deliveries/${draft.deliveryUuid}` },
      { method: 'PATCH', path: `/deliveries/${draft.deliveryUuid}`, body: { subject: 'hijacked' } },
      { method: 'POST', path: `/deliveries/${draft.deliveryUuid}/files`, body: { name: 'evil.bin', size: 10 } },
      { method: 'PUT', path: `/deliveries/${draft.deliveryUuid}/files/${draftFile.fileId}/parts/0`, octet: true },
      { method: 'GET', path: `/deliveries/${draft.deliveryUuid}/files/${draftFile.fileId}/parts` },
      { method: 'POST', path: `/deliveries/${draft.deliveryUuid}/files/${draftFile.fileId}/commit` },
      { method: 'DELETE', path: `/deliveries/${draft.deliveryUuid}/files/${draftFile.fileId}` },
      { method: 'GET', path: `/deliveries/${draft.deliveryUuid}/files/${draftFile.fileId}/content` },
      { method: 'POST', path: `/deliveries/${draft.deliveryUuid}/send` },
    ];
    const secretBytes = Buffer.from(target.bytes).toString('hex').slice(0, 32);
    const as = async (who: 'anonymous' | 'carol' | 'foreignToken', route: (typeof routes)[number]) => {
      const headers: Record<string, string> = {};
      let path = api(route.path);
      if (who === 'carol') {
        headers.cookie = carol.cookie;
        headers[ANTI_CSRF_HEADER] = carol.csrf;
      }
      if (who === 'foreignToken') path += `?token=${foreign.token}`;
      let body: BodyInit | undefined;
      if (route.octet) {
        headers['content-type'] = 'application/octet-stream';
        headers['x-content-sha256'] = sha256(new Uint8Array(100));
        body = new Uint8Array(100);
      } else if (route.body !== undefined || route.method !== 'GET') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(route.body ?? {});
      }
      return fetch(`${server.url}${path}`, { method: route.method, headers, body });
    };
    for (const who of ['anonymous', 'carol', 'foreignToken'] as const) {
      for (const route of routes) {
        const response = await as(who, route);
        const text = await response.text();
        const label = `${who} ${route.method} ${route.path}`;
        expect([401, 403, 404], `${label}: ${text}`).toContain(response.status);
        // Public (token) routes: 401 without a token, 404 with a foreign one; the others need a session.
        const isPublic = route.method === 'GET' && (/^\/deliveries\/[^/]+$/.test(route.path) || route.path.endsWith('/content'));
        if (who !== 'carol') expect(response.status, label).toBe(isPublic && who === 'foreignToken' ? 404 : 401);
        expect(text, label).not.toContain('SECRET-SUBJECT');
        expect(Buffer.from(text, 'latin1').toString('hex'), label).not.toContain(secretBytes);
      }
    }
    // Carol cannot see them in her lists either.
    const carolInbox = await json<DeliveryPage>(await call(server, carol, 'GET', api('/deliveries/inbox?q=SECRET')), 200);
    expect(carolInbox.total).toBe(0);
    const carolSent = await json<DeliveryPage>(await call(server, carol, 'GET', api('/deliveries/sent?q=SECRET')), 200);
    expect(carolSent.total).toBe(0);
    // And nothing changed: the target still downloads with its own token.
    const still = await download(contentPath(d, f, target.token));
    expect(sha256(still.bytes)).toBe(sha256(target.bytes));
  });
});

describe('inbox, sent, delete', () => {
  it('lists newest first with search and the not-downloaded filter; recipients remove from their inbox, senders delete for everyone', async () => {
    const first = await createDraft(alice, { subject: 'List alpha', securityLevel: 10 });
    await send(alice, first.deliveryUuid);
    const second = await createDraft(alice, { subject: 'List beta', securityLevel: 10 });
    const file = await uploadFile(alice, second.deliveryUuid, 'beta.txt', testFileBytes(50));
    await send(alice, second.deliveryUuid);

    const inboxPage = await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=list%20&pageSize=10')), 200);
    expect(inboxPage.items.map((i) => i.subject)).toEqual(['List beta', 'List alpha']);
    expect(inboxPage.items[0]).toMatchObject({ sender: { email: 'alice@example.test', name: 'Alice Sender' }, fileCount: 1, totalSize: 50 });
    const paged = await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=list%20&pageSize=1&page=2')), 200);
    expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.items.map((i) => i.subject)).toEqual(['List alpha']);
    // Search by sender name too; wildcards are literal.
    expect((await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=alice%20sender')), 200)).total).toBeGreaterThanOrEqual(2);
    expect((await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=%25')), 200)).total).toBe(0);

    const sentPage = await json<DeliveryPage>(await call(server, alice, 'GET', api('/deliveries/sent?q=List')), 200);
    expect(sentPage.items.map((i) => i.subject)).toEqual(['List beta', 'List alpha']);
    expect((await json<DeliveryPage>(await call(server, alice, 'GET', api('/deliveries/sent?q=bob@example')), 200)).total).toBeGreaterThanOrEqual(2);

    await download(contentPath(second.deliveryUuid, file.fileId), bob);
    await expect
      .poll(async () => (await json<DeliveryPage>(await call(server, alice, 'GET', api('/deliveries/sent?q=List&filter=notDownloaded')), 200)).items.map((i) => i.subject))
      .toEqual(['List alpha']);
    expect((await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=List&filter=notDownloaded')), 200)).items.map((i) => i.subject)).toEqual([
      'List alpha',
    ]);

    // Bob removes alpha from his inbox: gone for him, still in Alice's sent list.
    expect((await call(server, bob, 'DELETE', api(`/deliveries/${first.deliveryUuid}`))).status).toBe(204);
    expect((await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=List')), 200)).items.map((i) => i.subject)).toEqual(['List beta']);
    await expectBackendError(await call(server, bob, 'GET', api(`/deliveries/${first.deliveryUuid}`)), 404);
    expect((await json<DeliveryPage>(await call(server, alice, 'GET', api('/deliveries/sent?q=List')), 200)).total).toBe(2);

    // Alice deletes beta for everyone: its bytes are gone too.
    expect((await call(server, alice, 'DELETE', api(`/deliveries/${second.deliveryUuid}`))).status).toBe(204);
    await expectBackendError(await call(server, bob, 'GET', contentPath(second.deliveryUuid, file.fileId)), 404);
    expect((await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?q=List')), 200)).total).toBe(0);
    expect((await json<DeliveryPage>(await call(server, alice, 'GET', api('/deliveries/sent?q=List')), 200)).items.map((i) => i.subject)).toEqual(['List alpha']);
    expect(await server.app.blobs.exists(`deliveries/${second.deliveryUuid}/${file.fileId}/0`)).toBe(false);
  });
});

it('publishes the delivery calls in the OpenAPI document', async () => {
  const doc = await (await jar.fetch(`${server.url}/api/2/openapi.json`)).json();
  for (const path of ['/api/2/deliveries', '/api/2/deliveries/inbox', '/api/2/deliveries/sent', '/api/2/deliveries/{deliveryUuid}/files/{fileId}/parts/{index}']) {
    expect(Object.keys(doc.paths), path).toContain(path);
  }
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['DeliveryDetail', 'DeliveryPage', 'DeliveryUploadFile', 'CreateDeliveryBody']));
});
