import { createHash, randomBytes } from 'node:crypto';
import { deliveryContentUrl, getDelivery } from '@shared/api/endpoints/delivery-read';
import { getUserPublicKeys } from '@shared/api/endpoints/secupass';
import { DELIVERY_PATHS, E2E_MANIFEST_FILE_ID } from '@shared/contract/deliveries';
import { toBase64Url, utf8Encode } from '@shared/crypto/bytes';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import type { Manifest } from '@shared/crypto/manifest';
import { createMemoryStorage } from '@shared/api/storage-adapter';
import { downloadE2eFile, openE2eDelivery, sendDelivery, ServerKeyPinStore, type ChangedContactKey } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

/**
 * A malicious server (issue 12 §4): between the sender and the reader the test changes the
 * database and the blob folder the way a compromised server could, and expects the reader's
 * specific outcome. Runs the shared client code in Node (CryptoService = the Worker's code) on a
 * real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL).
 */

const API = '/api/2';
const RECORD_SIZE = 1024;

let server: TestServer;
let admin: Session;
let alice: E2eActor; // sender
let bob: E2eActor; // reader
let eve: E2eActor; // the server's accomplice: her keys are what a server would substitute
let dora: E2eActor; // sender whose SecuPass gets reset

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
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
  dora = await signInActor('dora@example.test');
  await giveSecuPass(alice, 'Alice-SecuPass-mal-Quartz-41');
  await giveSecuPass(bob, 'Bob-SecuPass-mal-Lantern-42');
  await giveSecuPass(eve, 'Eve-SecuPass-mal-Harbour-43');
  await giveSecuPass(dora, 'Dora-SecuPass-mal-Meadow-44');
}, 60_000);
afterAll(() => server?.close());

async function sendAs(sender: E2eActor, files: Array<{ name: string; bytes: Uint8Array }>, to = ['bob@example.test']) {
  const result = await sendDelivery({
    client: sender.client,
    draft: { recipients: to, subject: 'Figures', body: '', securityLevel: 20 },
    files: files.map((f) => ({ name: f.name, blob: blobOf(f.bytes), mimeType: 'application/octet-stream' })),
    e2e: e2eOf(sender, { recordSize: RECORD_SIZE }),
  });
  if (!result.ok) throw new Error(`send failed: ${JSON.stringify(result.error)}`);
  return result.delivery;
}

const userIdOf = async (uuid: string) => (await server.app.db.selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;

/** What a server with Eve's help can make: a manifest signed by Eve, encrypted and wrapped to the reader like a real one. */
async function plantForgedManifest(deliveryUuid: string, reader: E2eActor, manifest: Manifest): Promise<() => Promise<void>> {
  const db = server.app.db;
  const signed = await eve.crypto.signManifest({ signingKey: eve.keys!.signing.handle, manifest });
  const { handle } = await eve.crypto.generateFileKey();
  const { ciphertext } = await eve.crypto.encryptStream({ fileKey: handle, plaintext: blobOf(utf8Encode(JSON.stringify(signed))).stream() });
  const bytes = new Uint8Array(await new Response(ciphertext).arrayBuffer());
  const wrapped = await eve.crypto.wrapFileKey({
    fileKey: handle,
    recipientPublicKey: reader.keys!.encryption.publicKey,
    binding: { contextId: deliveryUuid, fileId: E2E_MANIFEST_FILE_ID, recipientKeyId: reader.keys!.encryption.keyId },
  });
  const original = (await db.selectFrom('deliveries').select('manifest').where('uuid', '=', deliveryUuid).executeTakeFirstOrThrow()).manifest;
  const copy = await db
    .selectFrom('access_descriptors')
    .selectAll()
    .where('resource_id', '=', deliveryUuid)
    .where('file_id', '=', E2E_MANIFEST_FILE_ID)
    .where('recipient_user_id', '=', await userIdOf(reader.userUuid))
    .executeTakeFirstOrThrow();
  await db.updateTable('deliveries').set({ manifest: toBase64Url(bytes) }).where('uuid', '=', deliveryUuid).execute();
  await db.updateTable('access_descriptors').set({ wrapped_key: JSON.stringify(wrapped) }).where('id', '=', copy.id).execute();
  return async () => {
    await db.updateTable('deliveries').set({ manifest: original }).where('uuid', '=', deliveryUuid).execute();
    await db.updateTable('access_descriptors').set({ wrapped_key: copy.wrapped_key }).where('id', '=', copy.id).execute();
  };
}

/** The server offers Eve's signing key as the sender's live one. */
async function substituteSigningKey(ofUserUuid: string): Promise<() => Promise<void>> {
  const db = server.app.db;
  const eveKey = await db.selectFrom('public_keys').selectAll().where('user_id', '=', await userIdOf(eve.userUuid)).where('usage', '=', 'signing').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  const target = await db.selectFrom('public_keys').selectAll().where('user_id', '=', await userIdOf(ofUserUuid)).where('usage', '=', 'signing').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  await db.updateTable('public_keys').set({ spki: eveKey.spki, key_id: eveKey.key_id, fingerprint: eveKey.fingerprint }).where('id', '=', target.id).execute();
  return async () => {
    await db.updateTable('public_keys').set({ spki: target.spki, key_id: target.key_id, fingerprint: target.fingerprint }).where('id', '=', target.id).execute();
  };
}

describe('a malicious server is detected by the reader', () => {
  it('swapped sender identity: the signed address is shown and the mismatch named; a swapped sender account is refused', async () => {
    const bytes = new Uint8Array(randomBytes(3 * RECORD_SIZE));
    const delivery = await sendAs(alice, [{ name: 'q3.bin', bytes }]);
    const honest = await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) });
    expect(honest.manifest.version).toBe(2);
    expect(honest.signer).toMatchObject({ userUuid: alice.userUuid, email: 'alice@example.test', signedIdentity: true, fingerprint: alice.keys!.signing.fingerprint, keyRetired: false });
    expect(honest.identityMismatch).toBeUndefined();
    await honest.close();

    // 1. The server renames the sender's account: the delivery page would say "ceo@…".
    const db = server.app.db;
    const aliceId = await userIdOf(alice.userUuid);
    await db.updateTable('users').set({ email: 'ceo@example.test' }).where('id', '=', aliceId).execute();
    try {
      expect((await getDelivery(bob.client, delivery.deliveryUuid)).sender.email).toBe('ceo@example.test');
      const opened = await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) });
      expect(opened.signer.email).toBe('alice@example.test');
      expect(opened.identityMismatch).toEqual({ signedEmail: 'alice@example.test', serverEmail: 'ceo@example.test' });
      await opened.close();
    } finally {
      await db.updateTable('users').set({ email: 'alice@example.test' }).where('id', '=', aliceId).execute();
    }

    // 2. The server names Eve as the sender and serves a manifest she signed for Alice's delivery.
    const restore = await plantForgedManifest(delivery.deliveryUuid, bob, {
      version: 2,
      contextId: delivery.deliveryUuid,
      senderUserId: eve.userUuid,
      senderEmail: 'eve@example.test',
      signerKeyId: eve.keys!.signing.keyId,
      createdAt: new Date().toISOString(),
      files: [],
    });
    try {
      // The server still says Alice sent it: the signed sender differs → refused.
      await expect(openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) })).rejects.toMatchObject({ name: 'ManifestSignatureError' });
    } finally {
      await restore();
    }
  });

  it('unsigned names and sizes: the server changes its file list; the reader lists only the signed names and sizes', async () => {
    const bytes = new Uint8Array(randomBytes(2 * RECORD_SIZE + 5));
    const delivery = await sendAs(alice, [{ name: 'contract.pdf', bytes }]);
    const db = server.app.db;
    await db.updateTable('delivery_files').set({ name: 'invoice-pay-now.exe', size: 12 }).where('uuid', '=', delivery.files[0]!.fileId).execute();
    const serverView = await getDelivery(bob.client, delivery.deliveryUuid);
    expect(serverView.files.map((f) => [f.name, f.size])).toEqual([['invoice-pay-now.exe', 12]]);
    const opened = await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) });
    expect(opened.files.map((f) => [f.name, f.size])).toEqual([['contract.pdf', bytes.length]]);
    const download = () =>
      downloadE2eFile({
        delivery: opened,
        fileId: opened.files[0]!.fileId,
        crypto: bob.crypto,
        url: deliveryContentUrl(delivery.deliveryUuid, opened.files[0]!.fileId, null, server.url),
        fetch: bob.fetch,
      });
    // The server's wrong size also cuts what it serves: the decoder names the truncation (the signed size rules).
    await expect(download()).rejects.toMatchObject({ name: 'E2eDownloadError', kind: 'fileDecryption', cause: { code: 'stream-truncated' } });
    await db.updateTable('delivery_files').set({ size: delivery.files[0]!.size }).where('uuid', '=', delivery.files[0]!.fileId).execute();
    expect(sha256(new Uint8Array(await (await download()).arrayBuffer()))).toBe(sha256(bytes));
    await opened.close();
  });

  it("changed key: the server substitutes the sender's signing key; the reader gets the changed-key error with both fingerprints", async () => {
    const delivery = await sendAs(alice, [{ name: 'a.bin', bytes: new Uint8Array(randomBytes(100)) }]);
    // Bob has read from Alice before: her key is pinned.
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) })).close();
    expect(await bob.pins.get(`${alice.userUuid}:signing`)).toBe(alice.keys!.signing.fingerprint);

    const restoreKey = await substituteSigningKey(alice.userUuid);
    const restoreManifest = await plantForgedManifest(delivery.deliveryUuid, bob, {
      version: 2,
      contextId: delivery.deliveryUuid,
      senderUserId: alice.userUuid,
      senderEmail: 'alice@example.test',
      signerKeyId: eve.keys!.signing.keyId,
      createdAt: new Date().toISOString(),
      files: [],
    });
    try {
      const error = await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'ContactKeyChangedError',
        code: 'contact-key-changed',
        change: { email: 'alice@example.test', userUuid: alice.userUuid, usage: 'signing', pinnedFingerprint: alice.keys!.signing.fingerprint, presentedFingerprint: eve.keys!.signing.fingerprint },
      });
      // The dialog's callback gets both fingerprints too; refusing leaves the pin alone.
      const asked: ChangedContactKey[] = [];
      await expect(
        openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob, { confirmChangedKey: async (c) => (asked.push(c), false) }) }),
      ).rejects.toMatchObject({ name: 'ContactKeyChangedError' });
      expect(asked).toEqual([expect.objectContaining({ pinnedFingerprint: alice.keys!.signing.fingerprint, presentedFingerprint: eve.keys!.signing.fingerprint, presentedFingerprintDisplay: eve.keys!.signing.fingerprintDisplay })]);
      expect(await bob.pins.get(`${alice.userUuid}:signing`)).toBe(alice.keys!.signing.fingerprint);
    } finally {
      await restoreManifest();
      await restoreKey();
    }
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob) })).close();
  });

  it("old deliveries after the sender's reset stay verifiable: retired signing keys are offered for verifying only", async () => {
    const bytes = new Uint8Array(randomBytes(2 * RECORD_SIZE));
    const before = await sendAs(dora, [{ name: 'before-reset.bin', bytes }]);
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: before.deliveryUuid, e2e: e2eOf(bob) })).close();
    const oldSigning = dora.keys!.signing;
    const oldEncryption = dora.keys!.encryption;

    expect((await call(server, admin, 'POST', `${API}/admin/users/${dora.userUuid}/secupass/reset`)).status).toBe(204);
    // While Dora has no SecuPass: no live keys, the old signing key retired, the old encryption key gone.
    const during = await getUserPublicKeys(bob.client, dora.userUuid);
    expect(during.keys.map((k) => [k.keyId, k.usage, k.retired === true])).toEqual([[oldSigning.keyId, 'signing', true]]);
    const opened = await openE2eDelivery({ client: bob.client, deliveryUuid: before.deliveryUuid, e2e: e2eOf(bob) });
    expect(opened.signer).toMatchObject({ email: 'dora@example.test', keyRetired: true, fingerprint: oldSigning.fingerprint });
    const blob = await downloadE2eFile({ delivery: opened, fileId: opened.files[0]!.fileId, crypto: bob.crypto, url: deliveryContentUrl(before.deliveryUuid, opened.files[0]!.fileId, null, server.url), fetch: bob.fetch });
    expect(sha256(new Uint8Array(await blob.arrayBuffer()))).toBe(sha256(bytes));
    await opened.close();
    // A reader who never met Dora (a fresh device) verifies the old delivery too.
    const bobFresh = { ...bob, pins: new MemoryKeyPinStore() };
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: before.deliveryUuid, e2e: e2eOf(bobFresh) })).close();

    // New SecuPass: new live keys first, the old signing key still listed as retired; never encrypted to.
    dora.crypto = (await e2eActor(server, dora.session)).crypto;
    await giveSecuPass(dora, 'Dora-New-SecuPass-mal-Orchard-45');
    const after = await getUserPublicKeys(bob.client, dora.userUuid);
    expect(after.keys.filter((k) => k.retired !== true).map((k) => k.keyId).sort()).toEqual([dora.keys!.encryption.keyId, dora.keys!.signing.keyId].sort());
    expect(after.keys.filter((k) => k.retired === true).map((k) => k.keyId)).toEqual([oldSigning.keyId]);
    expect(after.keys.some((k) => k.keyId === oldEncryption.keyId)).toBe(false);
    const recipientKeys = (await (await call(server, alice.session, 'POST', `${API}/deliveries`, { recipients: ['dora@example.test'], subject: 'x', securityLevel: 20 })).json()) as { deliveryUuid: string };
    const offered = (await (await call(server, alice.session, 'GET', `${API}${DELIVERY_PATHS.recipientKeys(recipientKeys.deliveryUuid)}`)).json()) as { recipients: Array<{ keys: Array<{ keyId: string }> }> };
    expect(offered.recipients[0]!.keys.map((k) => k.keyId)).not.toContain(oldSigning.keyId);

    // Dora's new delivery: her new key is a change for Bob (confirmed after comparing) …
    const later = await sendAs(dora, [{ name: 'after-reset.bin', bytes: new Uint8Array(randomBytes(50)) }]);
    await expect(openE2eDelivery({ client: bob.client, deliveryUuid: later.deliveryUuid, e2e: e2eOf(bob) })).rejects.toMatchObject({
      name: 'ContactKeyChangedError',
      change: { pinnedFingerprint: oldSigning.fingerprint, presentedFingerprint: dora.keys!.signing.fingerprint },
    });
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: later.deliveryUuid, e2e: e2eOf(bob, { confirmChangedKey: async () => true }) })).close();
    // … and the old delivery still opens without asking again (the replaced key stays known).
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: before.deliveryUuid, e2e: e2eOf(bob) })).close();
    // Dora herself lost her old access (her copies died with the reset), her recipients did not.
    await expectBackendError(await call(server, dora.session, 'GET', `${API}${DELIVERY_PATHS.e2e(before.deliveryUuid)}`), 404, 'AccessDescriptorNotFoundException');
  }, 60_000);

  it('the public keys of a user are for signed-in callers only', async () => {
    expect((await call(server, null, 'GET', `${API}/users/${alice.userUuid}/public-keys`)).status).toBe(401);
    await expectBackendError(await call(server, bob.session, 'GET', `${API}/users/no-such-user/public-keys`), 404, 'NotFoundException');
  });
});

describe('the server-stored pin list closes the fresh-device gap', () => {
  /** A new browser of `actor`: same account and SecuPass, nothing stored locally; pins from the server list. */
  const freshDevice = async (actor: E2eActor, storage = createMemoryStorage()) =>
    ServerKeyPinStore.load({ client: actor.client, crypto: actor.crypto, keys: actor.keys!, ownerUserId: actor.userUuid, storage });

  it("key substitution on a fresh device: the server swaps the sender's or the recipient's key; the pinned list names the change", async () => {
    const delivery = await sendAs(alice, [{ name: 'b.bin', bytes: new Uint8Array(randomBytes(64)) }]);
    // Bob's first browser reads from Alice: her key goes into his list on the server.
    const first = await freshDevice(bob);
    await (await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob, { pins: first }) })).close();

    const restoreKey = await substituteSigningKey(alice.userUuid);
    const restoreManifest = await plantForgedManifest(delivery.deliveryUuid, bob, {
      version: 2,
      contextId: delivery.deliveryUuid,
      senderUserId: alice.userUuid,
      senderEmail: 'alice@example.test',
      signerKeyId: eve.keys!.signing.keyId,
      createdAt: new Date().toISOString(),
      files: [],
    });
    try {
      // Without the list (pins only in one browser) a new browser would have trusted Eve's key on first use:
      const local = await openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob, { pins: new MemoryKeyPinStore() }) });
      expect(local.signer.fingerprint).toBe(eve.keys!.signing.fingerprint);
      await local.close();
      // With it, Bob's new browser knows Alice's key and names the change.
      await expect(openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: e2eOf(bob, { pins: await freshDevice(bob) }) })).rejects.toMatchObject({
        name: 'ContactKeyChangedError',
        change: { pinnedFingerprint: alice.keys!.signing.fingerprint, presentedFingerprint: eve.keys!.signing.fingerprint },
      });
    } finally {
      await restoreManifest();
      await restoreKey();
    }

    // The recipient's key: Alice pinned Bob's on her first browser; the server now offers Eve's key as Bob's.
    const aliceFirst = await freshDevice(alice);
    const sent = await sendDelivery({
      client: alice.client,
      draft: { recipients: ['bob@example.test'], subject: 'pinned', body: '', securityLevel: 20 },
      files: [{ name: 'd.bin', blob: blobOf(new Uint8Array(randomBytes(64))) }],
      e2e: e2eOf(alice, { pins: aliceFirst, recordSize: RECORD_SIZE }),
    });
    expect(sent.ok).toBe(true);
    const db = server.app.db;
    const bobId = await userIdOf(bob.userUuid);
    const eveEnc = await db.selectFrom('public_keys').selectAll().where('user_id', '=', await userIdOf(eve.userUuid)).where('usage', '=', 'encryption').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const bobEnc = await db.selectFrom('public_keys').selectAll().where('user_id', '=', bobId).where('usage', '=', 'encryption').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    await db.updateTable('public_keys').set({ spki: eveEnc.spki, key_id: eveEnc.key_id, fingerprint: eveEnc.fingerprint }).where('id', '=', bobEnc.id).execute();
    try {
      const changes: ChangedContactKey[] = [];
      const refused = await sendDelivery({
        client: alice.client,
        draft: { recipients: ['bob@example.test'], subject: 'substituted', body: '', securityLevel: 20 },
        files: [{ name: 'e.bin', blob: blobOf(new Uint8Array(randomBytes(64))) }],
        e2e: e2eOf(alice, { pins: await freshDevice(alice), recordSize: RECORD_SIZE, confirmChangedKey: async (c) => (changes.push(c), false) }),
      });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.code).toBe('keyChanged');
      expect(changes).toEqual([expect.objectContaining({ usage: 'encryption', pinnedFingerprint: bob.keys!.encryption.fingerprint, presentedFingerprint: eve.keys!.encryption.fingerprint })]);
    } finally {
      await db.updateTable('public_keys').set({ spki: bobEnc.spki, key_id: bobEnc.key_id, fingerprint: bobEnc.fingerprint }).where('id', '=', bobEnc.id).execute();
    }
  }, 60_000);

  it('a tampered or swapped pin list is refused', async () => {
    const device = await freshDevice(bob);
    await device.set('someone:signing', 'a'.repeat(64));
    const db = server.app.db;
    const bobId = await userIdOf(bob.userUuid);
    const row = await db.selectFrom('contact_pins').selectAll().where('user_id', '=', bobId).executeTakeFirstOrThrow();
    const envelope = JSON.parse(row.envelope!) as { ciphertext: string; counter: number };
    const flipped = envelope.ciphertext.slice(0, 10) + (envelope.ciphertext[10] === 'A' ? 'B' : 'A') + envelope.ciphertext.slice(11);
    try {
      await db.updateTable('contact_pins').set({ envelope: JSON.stringify({ ...envelope, ciphertext: flipped }) }).where('user_id', '=', bobId).execute();
      await expect(freshDevice(bob)).rejects.toMatchObject({ name: 'ContactPinsInvalidError', code: 'contact-pins-invalid' });
      // Eve's own valid list handed to Bob (same counter): not his.
      await (await freshDevice(eve)).set('x:signing', 'e'.repeat(64));
      const eveRow = await db.selectFrom('contact_pins').selectAll().where('user_id', '=', await userIdOf(eve.userUuid)).executeTakeFirstOrThrow();
      await db.updateTable('contact_pins').set({ envelope: eveRow.envelope, counter: eveRow.counter }).where('user_id', '=', bobId).execute();
      await expect(freshDevice(bob)).rejects.toMatchObject({ name: 'ContactPinsInvalidError' });
      // Reading refuses too (the list is the reader's pin store).
      const delivery = await sendAs(alice, [{ name: 'f.bin', bytes: new Uint8Array(randomBytes(64)) }]);
      await expect(openE2eDelivery({ client: bob.client, deliveryUuid: delivery.deliveryUuid, e2e: { crypto: bob.crypto, keys: bob.keys! } })).rejects.toMatchObject({ name: 'ContactPinsInvalidError' });
    } finally {
      await db.updateTable('contact_pins').set({ envelope: row.envelope, counter: row.counter }).where('user_id', '=', bobId).execute();
    }
    expect(await (await freshDevice(bob)).get('someone:signing')).toBe('a'.repeat(64));
  });

  it('a rolled-back or dropped pin list is refused by a device that saw a newer one', async () => {
    const storage = createMemoryStorage();
    const device = await freshDevice(bob, storage);
    await device.set('old-contact:signing', '1'.repeat(64));
    const db = server.app.db;
    const bobId = await userIdOf(bob.userUuid);
    const older = await db.selectFrom('contact_pins').selectAll().where('user_id', '=', bobId).executeTakeFirstOrThrow();
    await device.set('old-contact:signing', '2'.repeat(64)); // e.g. after comparing a changed key
    const newer = await db.selectFrom('contact_pins').selectAll().where('user_id', '=', bobId).executeTakeFirstOrThrow();
    try {
      // The server serves the older, validly sealed list again.
      await db.updateTable('contact_pins').set({ envelope: older.envelope, counter: older.counter }).where('user_id', '=', bobId).execute();
      await expect(freshDevice(bob, storage)).rejects.toMatchObject({ name: 'ContactPinsRolledBackError', code: 'contact-pins-rolled-back' });
      // Documented limit: a device that never saw the newer one cannot tell (README section 6).
      expect(await (await freshDevice(bob)).get('old-contact:signing')).toBe('1'.repeat(64));
      // The server drops the list altogether.
      await db.deleteFrom('contact_pins').where('user_id', '=', bobId).execute();
      await expect(freshDevice(bob, storage)).rejects.toMatchObject({ name: 'ContactPinsRolledBackError' });
    } finally {
      await db.deleteFrom('contact_pins').where('user_id', '=', bobId).execute();
      await db.insertInto('contact_pins').values(newer).execute();
    }
    expect(await (await freshDevice(bob, storage)).get('old-contact:signing')).toBe('2'.repeat(64));
  });
});
