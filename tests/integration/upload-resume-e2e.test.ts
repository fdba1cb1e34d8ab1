import { createHash, randomBytes } from 'node:crypto';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { getOwnSecuPass } from '@shared/api/endpoints/secupass';
import { DELIVERY_PATHS, type DeliveryDetail, type PartsResponse } from '@shared/contract/deliveries';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService } from '@shared/crypto/service';
import { ciphertextLength } from '@shared/crypto/stream-format';
import { downloadE2eFile, openE2eDelivery, sendDelivery, type E2eOptions } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

/**
 * E2E resume after a reload (DESIGN §4, shared/transfer README "Levels 3/4"): the sender's own
 * copy of the file key stays on the draft, so a new client (new CryptoService = a new Worker,
 * keys unlocked again) continues at the missing parts with byte-identical ciphertext; a changed
 * local file starts over under a fresh key. Real server, real crypto, PUTs counted on the wire.
 */

const API = '/api/2';
/** Small records: a part is 8 records (~8 KiB), so a few hundred KiB make many parts. */
const RECORD_SIZE = 1024;
const PART_PLAINTEXT = 8 * RECORD_SIZE;
const PASSPHRASE = 'Alice-SecuPass-resume-Meadow-61';

let server: TestServer;
let alice: E2eActor;
let bob: E2eActor;
let eve: E2eActor;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const blobOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);
const PART_PUT = /\/parts\/(\d+)$/;

async function actor(admin: Session, email: string): Promise<E2eActor> {
  await createUserAsAdmin(server, admin, { email });
  return e2eActor(server, await signIn(server, email, 'Good-Passw0rd'));
}

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  alice = await actor(admin, 'alice@example.test');
  bob = await actor(admin, 'bob@example.test');
  eve = await actor(admin, 'eve@example.test');
  await giveSecuPass(alice, PASSPHRASE);
  await giveSecuPass(bob, 'Bob-SecuPass-resume-Harbour-62');
  await giveSecuPass(eve, 'Eve-SecuPass-resume-Lantern-63');
}, 60_000);
afterAll(() => server?.close());

/** A "page" of alice: its own ApiClient whose fetch counts the part PUTs that reached the server (and may abort after some). */
function page(session: Session, abortAfterPuts?: { count: number; controller: AbortController }) {
  const puts: number[] = [];
  const counting: typeof fetch = async (input, init = {}) => {
    const response = await fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: session.cookie } });
    const match = init.method === 'PUT' ? PART_PUT.exec(String(input)) : null;
    if (match && response.ok) {
      puts.push(Number(match[1]));
      if (abortAfterPuts && puts.length === abortAfterPuts.count) abortAfterPuts.controller.abort();
    }
    return response;
  };
  const client: ApiClient = createApiClient({ backendUrl: server.url, fetch: counting });
  client.setAntiCsrfToken(session.csrf);
  return { client, puts };
}

/** After a reload: a fresh CryptoService (a new Worker), the SecuPass unlocked again from the server's blob. */
async function reloadedE2e(): Promise<E2eOptions> {
  const crypto = createCryptoService();
  const own = await getOwnSecuPass(alice.client);
  const { keys } = await crypto.unlockSecuPass({ userId: alice.userUuid, blob: own.blob, passphrase: PASSPHRASE });
  return { crypto, keys, pins: new MemoryKeyPinStore(), recordSize: RECORD_SIZE };
}

async function parts(deliveryUuid: string, fileId: string): Promise<PartsResponse> {
  return (await (await call(server, alice.session, 'GET', `${API}${DELIVERY_PATHS.parts(deliveryUuid, fileId)}`)).json()) as PartsResponse;
}

async function draftFile(deliveryUuid: string): Promise<DeliveryDetail['files'][number]> {
  const detail = (await (await call(server, alice.session, 'GET', `${API}${DELIVERY_PATHS.one(deliveryUuid)}`)).json()) as DeliveryDetail;
  expect(detail.files).toHaveLength(1);
  return detail.files[0]!;
}

async function bobReads(deliveryUuid: string): Promise<Uint8Array> {
  const opened = await openE2eDelivery({ client: bob.client, deliveryUuid, e2e: e2eOf(bob) });
  try {
    const file = opened.files[0]!;
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: bob.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, server.url), fetch: bob.fetch });
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    await opened.close();
  }
}

/** Sends `bytes` at level 3 to bob and stops (abort) once `stopAfter` parts are on the server. */
async function sendHalf(bytes: Uint8Array, stopAfter: number, subject: string): Promise<string> {
  const controller = new AbortController();
  const first = page(alice.session, { count: stopAfter, controller });
  const result = await sendDelivery({
    client: first.client,
    draft: { recipients: ['bob@example.test'], subject, body: '', securityLevel: 20 },
    files: [{ name: 'ledger.bin', blob: blobOf(bytes), mimeType: 'application/octet-stream' }],
    e2e: e2eOf(alice, { recordSize: RECORD_SIZE }),
    signal: controller.signal,
    partsInFlight: 1,
  });
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('not stopped');
  expect(result.error.code).toBe('cancelled');
  expect(first.puts).toHaveLength(stopAfter);
  return result.deliveryUuid!;
}

describe('E2E upload resume', () => {
  it('after a reload, only the missing parts are sent, the parts on the server stay as they are, and the recipient decrypts identical bytes', async () => {
    const bytes = new Uint8Array(randomBytes(20 * PART_PLAINTEXT + 333)); // 21 parts
    const deliveryUuid = await sendHalf(bytes, 9, 'Resume: same file');
    const before = await draftFile(deliveryUuid);
    expect(before.size).toBe(ciphertextLength(bytes.length, RECORD_SIZE));
    const half = await parts(deliveryUuid, before.fileId);
    expect(half.partCount).toBe(21);
    expect(half.parts.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // The sender's own key copy is on the draft, wrapped to the sender's key (never the key itself).
    expect(half.ownKey?.recipientKeyId).toBe(alice.keys!.encryption.keyId);

    const second = page(alice.session);
    const resumed = await sendDelivery({ client: second.client, draft: { deliveryUuid }, files: [{ name: 'ledger.bin', blob: blobOf(bytes), mimeType: 'application/octet-stream' }], e2e: await reloadedE2e() });
    expect(resumed.ok, JSON.stringify(!resumed.ok && resumed.error)).toBe(true);
    expect([...second.puts].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => 9 + i));
    const file = (resumed as { delivery: DeliveryDetail }).delivery.files[0]!;
    expect(file.fileId).toBe(before.fileId);
    const after = await parts(deliveryUuid, file.fileId);
    for (const p of half.parts) expect(after.parts.find((q) => q.index === p.index)).toEqual(p);

    expect(sha256(await bobReads(deliveryUuid))).toBe(sha256(bytes));
  });

  it('a local file that changed under the parts already sent starts over under a fresh key; the recipient gets the new bytes', async () => {
    const original = new Uint8Array(randomBytes(6 * PART_PLAINTEXT + 10)); // 7 parts
    const deliveryUuid = await sendHalf(original, 3, 'Resume: changed file');
    const before = await draftFile(deliveryUuid);
    const changed = original.slice();
    changed[PART_PLAINTEXT + 5] = changed[PART_PLAINTEXT + 5]! ^ 0xff; // inside part 1, already on the server

    const second = page(alice.session);
    const resumed = await sendDelivery({ client: second.client, draft: { deliveryUuid }, files: [{ name: 'ledger.bin', blob: blobOf(changed), mimeType: 'application/octet-stream' }], e2e: await reloadedE2e() });
    expect(resumed.ok, JSON.stringify(!resumed.ok && resumed.error)).toBe(true);
    const file = (resumed as { delivery: DeliveryDetail }).delivery.files[0]!;
    // Dropped and announced again: every part sent anew, none under the old key.
    expect(file.fileId).not.toBe(before.fileId);
    expect([...second.puts].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sha256(await bobReads(deliveryUuid))).toBe(sha256(changed));
  });

  it('a key copy that does not unwrap here (bound to another file) also starts over cleanly', async () => {
    const bytes = new Uint8Array(randomBytes(3 * PART_PLAINTEXT + 1)); // 4 parts
    const deliveryUuid = await sendHalf(bytes, 2, 'Resume: foreign key copy');
    const before = await draftFile(deliveryUuid);
    // Replace the copy with one for another file id (a server swapping copies): its binding fails.
    const other = await sendHalf(bytes, 1, 'Resume: the other draft');
    const otherFile = await draftFile(other);
    const foreign = (await parts(other, otherFile.fileId)).ownKey!;
    expect((await call(server, alice.session, 'PUT', `${API}${DELIVERY_PATHS.ownKey(deliveryUuid, before.fileId)}`, foreign)).status).toBe(204);

    const second = page(alice.session);
    const resumed = await sendDelivery({ client: second.client, draft: { deliveryUuid }, files: [{ name: 'ledger.bin', blob: blobOf(bytes), mimeType: 'application/octet-stream' }], e2e: await reloadedE2e() });
    expect(resumed.ok, JSON.stringify(!resumed.ok && resumed.error)).toBe(true);
    expect((resumed as { delivery: DeliveryDetail }).delivery.files[0]!.fileId).not.toBe(before.fileId);
    expect(second.puts).toHaveLength(4);
    expect(sha256(await bobReads(deliveryUuid))).toBe(sha256(bytes));
  });

  it('PUT …/own-key: only the draft\'s sender, only levels 3/4, only a live key of the sender; the parts listing shows the copy to nobody else', async () => {
    const deliveryUuid = await sendHalf(new Uint8Array(randomBytes(2 * PART_PLAINTEXT)), 1, 'Resume: own-key rules');
    const file = await draftFile(deliveryUuid);
    const copy = (await parts(deliveryUuid, file.fileId)).ownKey!;
    const path = `${API}${DELIVERY_PATHS.ownKey(deliveryUuid, file.fileId)}`;

    expect((await call(server, null, 'PUT', path, copy)).status).toBe(401);
    await expectBackendError(await call(server, eve.session, 'PUT', path, copy), 404);
    const eveParts = await call(server, eve.session, 'GET', `${API}${DELIVERY_PATHS.parts(deliveryUuid, file.fileId)}`);
    expect(eveParts.status).toBe(404);
    expect(JSON.stringify(await eveParts.json())).not.toContain('wrappedKey');
    // Another delivery's file through this delivery: not found.
    const other = await sendHalf(new Uint8Array(randomBytes(2 * PART_PLAINTEXT)), 1, 'Resume: other draft');
    const otherFile = await draftFile(other);
    await expectBackendError(await call(server, alice.session, 'PUT', `${API}${DELIVERY_PATHS.ownKey(deliveryUuid, otherFile.fileId)}`, copy), 404);
    // Bad input: the SPEC error shape, never a 5xx.
    await expectBackendError(await call(server, alice.session, 'PUT', path, { ...copy, recipientKeyId: 'someone-else' }), 400);
    await expectBackendError(await call(server, alice.session, 'PUT', path, { recipientKeyId: bob.keys!.encryption.keyId, wrappedKey: { ...copy.wrappedKey, recipientKeyId: bob.keys!.encryption.keyId } }), 400);
    await expectBackendError(await call(server, alice.session, 'PUT', path, { recipientKeyId: 'k' }), 400);
    // Levels 1/2 have no keys.
    const plain = (await (await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.create}`, { recipients: ['bob@example.test'], subject: 'Plain', securityLevel: 0 })).json()) as DeliveryDetail;
    const announced = (await (await call(server, alice.session, 'POST', `${API}${DELIVERY_PATHS.files(plain.deliveryUuid)}`, { name: 'a.bin', size: 10, mimeType: 'application/octet-stream' })).json()) as { fileId: string };
    await expectBackendError(await call(server, alice.session, 'PUT', `${API}${DELIVERY_PATHS.ownKey(plain.deliveryUuid, announced.fileId)}`, copy), 400);
  });
});
