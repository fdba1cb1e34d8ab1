import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deliveryContentUrl, getDelivery, getDeliveryInbox } from '@shared/api/endpoints/delivery-read';
import { getReleaseList } from '@shared/api/endpoints/delivery-e2e';
import { DELIVERY_PATHS, e2ePartLayout, E2E_MANIFEST_FILE_ID, type DeliveryDetail } from '@shared/contract/deliveries';
import { toBase64Url, utf8Encode } from '@shared/crypto/bytes';
import { ciphertextLength } from '@shared/crypto/stream-format';
import { downloadE2eFile, openE2eDelivery, releaseToRecipient, sendDelivery, type OpenedE2eDelivery } from '@shared/transfer';
import { addressedTo, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { filesUnder } from '@tests/support/files';
import { startTestServer, type TestServer } from '@tests/support/server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

/**
 * Levels 3/4 end to end on the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL)
 * with the real crypto (CryptoService, the code the browser Worker runs): each user is its own
 * "browser" with its own keys and pins.
 */

const API = '/api/2';
/** Small records so a few KiB make several parts (a part is 8 records). */
const RECORD_SIZE = 1024;
const FILE_MARKER = 'FILE-MARKER-5b1e0c9a-plaintext-at-rest';
const BODY_MARKER = 'BODY-MARKER-c04ff1d2-level4-message';
const SUBJECT_MARKER = 'SUBJECT-MARKER-77ae31-level4';

let server: TestServer;
let admin: Session;
let alice: E2eActor; // sender
let bob: E2eActor; // recipient with a SecuPass
let eve: E2eActor; // another user with a SecuPass
let carol: E2eActor; // recipient without a SecuPass (release path)

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Random bytes with the marker inside (start, middle, across a record boundary). */
function markedFile(size: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(size));
  const marker = utf8Encode(FILE_MARKER);
  for (const at of [0, Math.floor(size / 2), RECORD_SIZE - 10]) if (at + marker.length <= size) bytes.set(marker, at);
  return bytes;
}
const blobOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

async function signInActor(email: string): Promise<E2eActor> {
  await createUserAsAdmin(server, admin, { email });
  return e2eActor(server, await signIn(server, email, 'Good-Passw0rd'));
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  alice = await signInActor('alice@example.test');
  bob = await signInActor('bob@example.test');
  eve = await signInActor('eve@example.test');
  carol = await signInActor('carol@example.test');
  await giveSecuPass(alice, 'Alice-SecuPass-e2e-Quartz-41');
  await giveSecuPass(bob, 'Bob-SecuPass-e2e-Lantern-42');
  await giveSecuPass(eve, 'Eve-SecuPass-e2e-Harbour-43');
}, 60_000);
afterAll(() => server?.close());

async function sendAs(sender: E2eActor, level: 20 | 30, files: Array<{ name: string; bytes: Uint8Array }>, to = ['bob@example.test'], message = { subject: 'Encrypted figures', body: 'Plain at level 3.' }) {
  const result = await sendDelivery({
    client: sender.client,
    draft: { recipients: to, subject: message.subject, body: message.body, securityLevel: level },
    files: files.map((f) => ({ name: f.name, blob: blobOf(f.bytes), mimeType: 'application/octet-stream' })),
    e2e: e2eOf(sender, { recordSize: RECORD_SIZE }),
  });
  if (!result.ok) throw new Error(`send failed: ${JSON.stringify(result.error)}`);
  return result.delivery;
}

async function readAll(reader: E2eActor, deliveryUuid: string): Promise<{ opened: OpenedE2eDelivery; contents: Map<string, Uint8Array> }> {
  const opened = await openE2eDelivery({ client: reader.client, deliveryUuid, e2e: e2eOf(reader) });
  const contents = new Map<string, Uint8Array>();
  for (const file of opened.files) {
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: reader.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, server.url), fetch: reader.fetch });
    contents.set(file.name, new Uint8Array(await blob.arrayBuffer()));
  }
  return { opened, contents };
}


const sent: DeliveryDetail[] = [];
const originals = new Map<string, Uint8Array>();

describe('levels 3 and 4', () => {
  it('level 3: files are stored as record-aligned ciphertext; the recipient decrypts identical bytes; the mail says sign in and unlock', async () => {
    const big = markedFile(20 * RECORD_SIZE + 123); // 21 records → 3 parts of 8 records
    const small = markedFile(RECORD_SIZE); // exactly one record
    originals.set('report.bin', big).set('small.bin', small);
    const delivery = await sendAs(alice, 20, [
      { name: 'report.bin', bytes: big },
      { name: 'small.bin', bytes: small },
    ]);
    sent.push(delivery);
    expect(delivery.securityLevel).toBe(20);
    const report = delivery.files.find((f) => f.name === 'report.bin')!;
    expect(report.encrypted).toBe(true);
    expect(report.size).toBe(ciphertextLength(big.length, RECORD_SIZE));

    // Parts: the header plus 8 whole records, then 8 records each.
    const parts = await (await call(server, alice.session, 'GET', `${API}${DELIVERY_PATHS.parts(delivery.deliveryUuid, report.fileId)}`)).json();
    const layout = e2ePartLayout(RECORD_SIZE);
    expect(parts).toMatchObject({ partSize: layout.partSize, leadingBytes: 49, partCount: 3 });
    expect(parts.parts.map((p: { size: number }) => p.size)).toEqual([49 + layout.partSize, layout.partSize, report.size - 49 - 2 * layout.partSize]);

    // What the server hands out is ciphertext.
    const raw = new Uint8Array(await (await bob.fetch(deliveryContentUrl(delivery.deliveryUuid, report.fileId, null, server.url))).arrayBuffer());
    expect(raw.length).toBe(report.size);
    expect(Buffer.from(raw).includes(Buffer.from(FILE_MARKER))).toBe(false);

    const { opened, contents } = await readAll(bob, delivery.deliveryUuid);
    expect(opened.files.map((f) => f.name).sort()).toEqual(['report.bin', 'small.bin']);
    expect(opened.message).toBeUndefined();
    expect(sha256(contents.get('report.bin')!)).toBe(sha256(big));
    expect(sha256(contents.get('small.bin')!)).toBe(sha256(small));
    await opened.close();

    // The sender reads its own delivery with its own copies.
    const own = await readAll(alice, delivery.deliveryUuid);
    expect(sha256(own.contents.get('small.bin')!)).toBe(sha256(small));

    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes('Encrypted figures'));
    expect(mail.text).toContain('SecuPass');
    const detail = await getDelivery(bob.client, delivery.deliveryUuid);
    expect(detail.e2eAccess).toBe('ok');
  });

  it('level 4: subject and body exist only in the signed, encrypted manifest; lists and the mail show a neutral placeholder', async () => {
    const bytes = markedFile(3 * RECORD_SIZE);
    const delivery = await sendAs(alice, 30, [{ name: 'contract.bin', bytes }], ['bob@example.test'], { subject: `Offer ${SUBJECT_MARKER}`, body: `Dear Bob, ${BODY_MARKER}` });
    sent.push(delivery);
    expect(delivery.subject).toBe('');
    expect(delivery.body).toBe('');
    const { opened, contents } = await readAll(bob, delivery.deliveryUuid);
    expect(opened.message).toEqual({ subject: `Offer ${SUBJECT_MARKER}`, body: `Dear Bob, ${BODY_MARKER}` });
    expect(sha256(contents.get('contract.bin')!)).toBe(sha256(bytes));
    const senderView = await getDelivery(alice.client, delivery.deliveryUuid);
    expect(senderView.recipients[0]!.decryptedAt).toEqual(expect.any(Number));
    const inbox = await getDeliveryInbox(bob.client);
    expect(inbox.items.find((i) => i.deliveryUuid === delivery.deliveryUuid)?.subject).toBe('');
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes('Encrypted message'));
    expect(mail.text).not.toContain(SUBJECT_MARKER);
  });

  it('level 4 refuses a plain subject or body; levels 3/4 refuse plain files and sending without manifest and copies', async () => {
    await expectBackendError(
      await call(server, alice.session, 'POST', `${API}/deliveries`, { recipients: ['bob@example.test'], subject: 'x', body: 'secret', securityLevel: 30 }),
      400,
      'ValidationException',
    );
    const created = await call(server, alice.session, 'POST', `${API}/deliveries`, { recipients: ['bob@example.test'], subject: 'Plain try', body: 'A level-3 message is plain.', securityLevel: 20 });
    expect(created.status).toBe(201);
    const { deliveryUuid } = (await created.json()) as DeliveryDetail;
    const plain = await expectBackendError(await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.files(deliveryUuid)}`, { name: 'a.txt', size: 10 }), 400, 'ValidationException');
    expect(plain.metadata).toMatchObject({ reason: 'encryptionRequired' });
    const badSize = await expectBackendError(
      await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.files(deliveryUuid)}`, { name: 'a.bin', size: 60, encryption: { recordSize: 1024, headerSha256: 'A'.repeat(43) } }),
      400,
      'ValidationException',
    );
    expect(badSize.metadata).toMatchObject({ reason: 'invalidCiphertextSize' });
    const noManifest = await expectBackendError(await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.send(deliveryUuid)}`), 400, 'ValidationException');
    expect(noManifest.metadata).toMatchObject({ reason: 'manifestMissing' });
    // A descriptor for someone who is not a reader of this delivery.
    const foreign = await expectBackendError(
      await call(server, alice.session, 'PUT', `${API}${DELIVERY_PATHS.e2e(deliveryUuid)}`, {
        manifest: 'AAAA',
        descriptors: [
          {
            recipientUserUuid: eve.userUuid,
            recipientKeyId: eve.keys!.encryption.keyId,
            fileId: E2E_MANIFEST_FILE_ID,
            wrappedKey: { version: 1, recipientKeyId: eve.keys!.encryption.keyId, enc: 'AAAA', ciphertext: 'AAAA' },
          },
        ],
      }),
      400,
      'ValidationException',
    );
    expect(foreign.metadata).toMatchObject({ reason: 'unknownRecipient' });
    // Bob's key exists, but a manifest with only the sender's copy would silently drop him.
    const half = await call(server, alice.session, 'PUT', `${API}${DELIVERY_PATHS.e2e(deliveryUuid)}`, {
      manifest: 'AAAA',
      descriptors: [
        {
          recipientUserUuid: alice.userUuid,
          recipientKeyId: alice.keys!.encryption.keyId,
          fileId: E2E_MANIFEST_FILE_ID,
          wrappedKey: { version: 1, recipientKeyId: alice.keys!.encryption.keyId, enc: 'AAAA', ciphertext: 'AAAA' },
        },
      ],
    });
    expect(half.status).toBe(204);
    const missing = await expectBackendError(await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.send(deliveryUuid)}`), 400, 'ValidationException');
    expect(missing.metadata).toMatchObject({ reason: 'accessDescriptorsMissing', recipients: ['bob@example.test'] });
  });

  it('a changed recipient key is refused unless the user confirms it; nothing is uploaded before', async () => {
    await alice.pins.set(`${bob.userUuid}:encryption`, 'f'.repeat(64));
    const changes: string[] = [];
    const refused = await sendDelivery({
      client: alice.client,
      draft: { recipients: ['bob@example.test'], subject: 'Pinned', body: '', securityLevel: 20 },
      files: [{ name: 'x.bin', blob: blobOf(markedFile(100)) }],
      e2e: e2eOf(alice, { recordSize: RECORD_SIZE, confirmChangedKey: async (c) => (changes.push(c.email), false) }),
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('keyChanged');
    expect(changes).toEqual(['bob@example.test']);
    const draft = await getDelivery(alice.client, refused.deliveryUuid!);
    expect(draft.files).toEqual([]);

    const confirmed = await sendDelivery({
      client: alice.client,
      draft: { deliveryUuid: refused.deliveryUuid! },
      files: [{ name: 'x.bin', blob: blobOf(markedFile(100)) }],
      e2e: e2eOf(alice, { recordSize: RECORD_SIZE, confirmChangedKey: async () => true }),
    });
    expect(confirmed.ok).toBe(true);
    expect(await alice.pins.get(`${bob.userUuid}:encryption`)).toBe(bob.keys!.encryption.fingerprint);
  });

  it('a tampered manifest, a swapped descriptor, a flipped ciphertext bit and the wrong reader are refused', async () => {
    const a = await sendAs(alice, 20, [
      { name: 'one.bin', bytes: markedFile(2 * RECORD_SIZE) },
      { name: 'two.bin', bytes: markedFile(3 * RECORD_SIZE) },
    ]);
    const db = server.app.db;
    const descriptors = () =>
      db.selectFrom('access_descriptors').selectAll().where('resource_id', '=', a.deliveryUuid).where('recipient_user_id', '=', sql<number>`(select id from users where uuid = ${bob.userUuid})`).execute();

    // 1. A manifest the server (or anyone) made: encrypted and wrapped correctly for Bob, signed by Eve.
    const original = (await db.selectFrom('deliveries').select('manifest').where('uuid', '=', a.deliveryUuid).executeTakeFirstOrThrow()).manifest!;
    const manifestCopy = (await descriptors()).find((d) => d.file_id === E2E_MANIFEST_FILE_ID)!;
    const forged = await eve.crypto.signManifest({
      signingKey: eve.keys!.signing.handle,
      manifest: { version: 1, contextId: a.deliveryUuid, senderUserId: alice.userUuid, signerKeyId: alice.keys!.signing.keyId, createdAt: new Date().toISOString(), files: [] },
    });
    const { handle: forgedKey } = await eve.crypto.generateFileKey();
    const { ciphertext } = await eve.crypto.encryptStream({ fileKey: forgedKey, plaintext: new Blob([utf8Encode(JSON.stringify(forged)) as Uint8Array<ArrayBuffer>]).stream() });
    const forgedBytes = new Uint8Array(await new Response(ciphertext).arrayBuffer());
    const forgedWrap = await eve.crypto.wrapFileKey({
      fileKey: forgedKey,
      recipientPublicKey: bob.keys!.encryption.publicKey,
      binding: { contextId: a.deliveryUuid, fileId: E2E_MANIFEST_FILE_ID, recipientKeyId: bob.keys!.encryption.keyId },
    });
    await db.updateTable('deliveries').set({ manifest: toBase64Url(forgedBytes) }).where('uuid', '=', a.deliveryUuid).execute();
    await db.updateTable('access_descriptors').set({ wrapped_key: JSON.stringify(forgedWrap) }).where('id', '=', manifestCopy.id).execute();
    await expect(openE2eDelivery({ client: bob.client, deliveryUuid: a.deliveryUuid, e2e: e2eOf(bob) })).rejects.toMatchObject({ name: 'ManifestSignatureError' });
    await db.updateTable('deliveries').set({ manifest: original }).where('uuid', '=', a.deliveryUuid).execute();
    await db.updateTable('access_descriptors').set({ wrapped_key: manifestCopy.wrapped_key }).where('id', '=', manifestCopy.id).execute();
    await openE2eDelivery({ client: bob.client, deliveryUuid: a.deliveryUuid, e2e: e2eOf(bob) }).then((o) => o.close());

    // 2. The copies of two files swapped: each is bound to its file, so unwrapping fails.
    const [one, two] = a.files;
    const rows = await descriptors();
    const d1 = rows.find((d) => d.file_id === one!.fileId)!;
    const d2 = rows.find((d) => d.file_id === two!.fileId)!;
    await db.updateTable('access_descriptors').set({ wrapped_key: d2.wrapped_key }).where('id', '=', d1.id).execute();
    await db.updateTable('access_descriptors').set({ wrapped_key: d1.wrapped_key }).where('id', '=', d2.id).execute();
    await expect(openE2eDelivery({ client: bob.client, deliveryUuid: a.deliveryUuid, e2e: e2eOf(bob) })).rejects.toMatchObject({ name: 'FileKeyUnwrapError' });
    await db.updateTable('access_descriptors').set({ wrapped_key: d1.wrapped_key }).where('id', '=', d1.id).execute();
    await db.updateTable('access_descriptors').set({ wrapped_key: d2.wrapped_key }).where('id', '=', d2.id).execute();

    // 3. One flipped bit in a stored part: the download fails as "file decryption", no bytes come out.
    const opened = await openE2eDelivery({ client: bob.client, deliveryUuid: a.deliveryUuid, e2e: e2eOf(bob) });
    const partPath = join(server.dataDir, 'blobs', 'deliveries', a.deliveryUuid, two!.fileId, '0');
    expect((await stat(partPath)).isFile()).toBe(true);
    const stored = await readFile(partPath);
    const flipped = Buffer.from(stored);
    flipped[200] = flipped[200]! ^ 1;
    await writeFile(partPath, flipped);
    const states: string[] = [];
    await expect(
      downloadE2eFile({
        delivery: opened,
        fileId: two!.fileId,
        crypto: bob.crypto,
        url: deliveryContentUrl(a.deliveryUuid, two!.fileId, null, server.url),
        fetch: bob.fetch,
        onProgress: (p) => states.push(p.state),
      }),
    ).rejects.toMatchObject({ name: 'E2eDownloadError', kind: 'fileDecryption' });
    expect(states.at(-1)).toBe('failed');
    await writeFile(partPath, stored);
    await opened.close();

    // 4. Bob's copies handed to Eve (a server bug or attack): wrapped to Bob's key, useless to her.
    const eveId = (await db.selectFrom('users').select('id').where('uuid', '=', eve.userUuid).executeTakeFirstOrThrow()).id;
    await expectBackendError(await call(server, eve.session, 'GET', `${API}${DELIVERY_PATHS.e2e(a.deliveryUuid)}`), 404);
    await db.insertInto('delivery_recipients').values({ uuid: crypto.randomUUID(), delivery_id: (await db.selectFrom('deliveries').select('id').where('uuid', '=', a.deliveryUuid).executeTakeFirstOrThrow()).id, email: 'eve@example.test', kind: 'recipient', token_hash: null, notified_at: null, downloaded_at: null, decrypted_at: null, removed_at: null, created_at: Date.now() }).execute();
    await db.updateTable('access_descriptors').set({ recipient_user_id: eveId, recipient_key_id: eve.keys!.encryption.keyId }).where('resource_id', '=', a.deliveryUuid).where('id', 'in', (await descriptors()).map((d) => d.id)).execute();
    await expect(openE2eDelivery({ client: eve.client, deliveryUuid: a.deliveryUuid, e2e: e2eOf(eve) })).rejects.toMatchObject({ name: 'FileKeyUnwrapError' });
  });

  it('every E2E route refuses anonymous callers and other users', async () => {
    const delivery = sent[0]!;
    const uuid = delivery.deliveryUuid;
    const draftRes = await call(server, alice.session, 'POST', `${API}/deliveries`, { recipients: ['bob@example.test'], subject: 'Draft', securityLevel: 20 });
    const draft = ((await draftRes.json()) as DeliveryDetail).deliveryUuid;
    const cases: Array<[string, string, unknown?]> = [
      ['GET', DELIVERY_PATHS.recipientKeys(draft)],
      ['PUT', DELIVERY_PATHS.e2e(draft), { manifest: 'AAAA', descriptors: [] }],
      ['GET', DELIVERY_PATHS.e2e(uuid)],
      ['POST', DELIVERY_PATHS.release(uuid), { descriptors: [] }],
    ];
    for (const [method, path, body] of cases) {
      expect((await call(server, null, method, `${API}${path}`, body)).status, `${method} ${path} anonymous`).toBe(401);
      const other = await call(server, eve.session, method, `${API}${path}`, body);
      expect([400, 404], `${method} ${path} as another user`).toContain(other.status);
      expect(JSON.stringify(await other.json())).not.toContain('wrappedKey');
    }
    expect((await call(server, null, 'GET', `${API}${DELIVERY_PATHS.releaseList}`)).status).toBe(401);
    // A recipient cannot use the sender's routes of a sent delivery.
    await expectBackendError(await call(server, bob.session, 'POST', `${API}${DELIVERY_PATHS.release(uuid)}`, { descriptors: [{ recipientUserUuid: bob.userUuid, recipientKeyId: 'k', fileId: 'manifest', wrappedKey: { version: 1, recipientKeyId: 'k', enc: 'AA', ciphertext: 'AA' } }] }), 404);
    // Only the caller's own copies are served.
    const own = (await (await call(server, bob.session, 'GET', `${API}${DELIVERY_PATHS.e2e(uuid)}`)).json()) as { descriptors: Array<{ recipientKeyId: string }> };
    expect(own.descriptors.length).toBeGreaterThan(0);
    expect(new Set(own.descriptors.map((d) => d.recipientKeyId))).toEqual(new Set([bob.keys!.encryption.keyId]));
  });

  it('release: no passphrase → invited and waiting; passphrase set → the sender is asked, releases after comparing; a passphrase reset needs a new release', async () => {
    const bytes = markedFile(5 * RECORD_SIZE + 7);
    const delivery = await sendAs(alice, 20, [{ name: 'for-carol.bin', bytes }], ['carol@example.test', 'bob@example.test'], { subject: 'For Carol', body: '' });
    const invite = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('carol@example.test')(m) && m.subject.includes('For Carol'));
    expect(invite.text).toContain('SecuPass');
    expect((await getDelivery(carol.client, delivery.deliveryUuid)).e2eAccess).toBe('passphraseNeeded');
    const waiting = await expectBackendError(await call(server, carol.session, 'GET', `${API}${DELIVERY_PATHS.e2e(delivery.deliveryUuid)}`), 404, 'AccessDescriptorNotFoundException');
    expect(waiting.metadata).toMatchObject({ reason: 'passphraseNeeded' });
    const senderView = await getDelivery(alice.client, delivery.deliveryUuid);
    expect(senderView.recipients.map((r) => [r.email, r.releasePending])).toEqual([
      ['carol@example.test', true],
      ['bob@example.test', false],
    ]);
    const forThis = async (session: E2eActor) => (await getReleaseList(session.client)).items.filter((i) => i.deliveryUuid === delivery.deliveryUuid);
    expect(await forThis(alice)).toEqual([]); // no key yet: nothing to release

    await giveSecuPass(carol, 'Carol-SecuPass-e2e-Meadow-44');
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && m.text.includes('carol@example.test') && m.text.includes('For Carol'));
    expect((await getDelivery(carol.client, delivery.deliveryUuid)).e2eAccess).toBe('releasePending');
    const list = await forThis(alice);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ deliveryUuid: delivery.deliveryUuid, recipient: { email: 'carol@example.test', userUuid: carol.userUuid } });
    expect(list[0]!.recipient.keys.find((k) => k.usage === 'encryption')!.fingerprint).toBe(carol.keys!.encryption.fingerprint);
    expect((await getReleaseList(bob.client)).items).toEqual([]);

    await releaseToRecipient({ client: alice.client, item: list[0]!, e2e: e2eOf(alice) });
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('carol@example.test')(m) && m.subject.includes('released'));
    expect(await forThis(alice)).toEqual([]);
    const first = await readAll(carol, delivery.deliveryUuid);
    expect(sha256(first.contents.get('for-carol.bin')!)).toBe(sha256(bytes));

    // Administrator reset: the old copies die; the new key is a changed key for the sender.
    const resetRes = await call(server, admin, 'POST', `${API}/admin/users/${carol.userUuid}/secupass/reset`);
    expect(resetRes.status).toBe(204);
    const gone = await expectBackendError(await call(server, carol.session, 'GET', `${API}${DELIVERY_PATHS.e2e(delivery.deliveryUuid)}`), 404, 'AccessDescriptorNotFoundException');
    expect(gone.metadata).toMatchObject({ reason: 'passphraseNeeded' });
    carol.crypto = (await e2eActor(server, carol.session)).crypto;
    await giveSecuPass(carol, 'Carol-New-SecuPass-e2e-Orchard-45');
    const again = await forThis(alice);
    expect(again).toHaveLength(1);
    await expect(releaseToRecipient({ client: alice.client, item: again[0]!, e2e: e2eOf(alice) })).rejects.toMatchObject({ name: 'ContactKeyChangedError' });
    await releaseToRecipient({ client: alice.client, item: again[0]!, e2e: e2eOf(alice, { confirmChangedKey: async (c) => c.presentedFingerprintDisplay === carol.keys!.encryption.fingerprintDisplay }) });
    const second = await readAll(carol, delivery.deliveryUuid);
    expect(sha256(second.contents.get('for-carol.bin')!)).toBe(sha256(bytes));
    // A second release for the same recipient is refused (nobody is waiting any more).
    await expectBackendError(await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.release(delivery.deliveryUuid)}`, { descriptors: [{ recipientUserUuid: carol.userUuid, recipientKeyId: carol.keys!.encryption.keyId, fileId: E2E_MANIFEST_FILE_ID, wrappedKey: { version: 1, recipientKeyId: carol.keys!.encryption.keyId, enc: 'AA', ciphertext: 'AA' } }] }), 400, 'ValidationException');
  }, 60_000);

  it('no plaintext at rest: neither the blob folder, the database nor the mails hold the file marker or the level-4 message', async () => {
    expect(sent.length).toBeGreaterThanOrEqual(2);
    const needles = [FILE_MARKER, BODY_MARKER, SUBJECT_MARKER].map((m) => Buffer.from(m, 'utf8'));
    const hits: string[] = [];
    for (const path of await filesUnder(server.dataDir)) {
      const content = await readFile(path);
      for (const needle of needles) if (content.includes(needle)) hits.push(`${path}: ${needle.toString()}`);
    }
    // Every row of every table (covers PostgreSQL, whose files are not in the data folder).
    const tables = await server.app.db.introspection.getTables();
    expect(tables.length).toBeGreaterThan(5);
    for (const table of tables) {
      const rows = await server.app.db.selectFrom(table.name as never).selectAll().execute();
      const text = JSON.stringify(rows);
      for (const needle of needles) if (text.includes(needle.toString())) hits.push(`table ${table.name}: ${needle.toString()}`);
    }
    for (const mail of await readMailbox(server.mailboxDir)) {
      for (const needle of needles) if (`${mail.subject}\n${mail.text}\n${mail.html}`.includes(needle.toString())) hits.push(`mail ${mail.id}: ${needle.toString()}`);
    }
    expect(hits).toEqual([]);
  });
});
