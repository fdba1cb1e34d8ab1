import { createMemoryStorage } from '@shared/api/storage-adapter';
import { getContactPins, putContactPins } from '@shared/api/endpoints/secupass';
import { FILE_COUNTERS_MAX, MEMBER_LIST_VERSIONS_MAX } from '@shared/crypto/contact-pins';
import { ServerKeyPinStore, LEGACY_PIN_PREFIX, PIN_COUNTER_PREFIX } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';

/**
 * The server-stored contact pin list (DESIGN §9 "Contact pins"): the routes (who may call them,
 * the counter rule) and the client store on the real server (SQLite, or PostgreSQL with
 * KUVERT_TEST_DATABASE_URL), with the real crypto.
 */

const API = '/api/2';
const FP = (c: string) => c.repeat(64);

let server: TestServer;
let admin: Session;
let alice: E2eActor;
let bob: E2eActor;
let carol: E2eActor; // no SecuPass

async function signInActor(email: string): Promise<E2eActor> {
  await createUserAsAdmin(server, admin, { email });
  return e2eActor(server, await signIn(server, email, 'Good-Passw0rd'));
}

const storeOf = (actor: E2eActor, storage = createMemoryStorage()) =>
  ServerKeyPinStore.load({ client: actor.client, crypto: actor.crypto, keys: actor.keys!, ownerUserId: actor.userUuid, storage });

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  alice = await signInActor('alice@example.test');
  bob = await signInActor('bob@example.test');
  carol = await signInActor('carol@example.test');
  await giveSecuPass(alice, 'Alice-SecuPass-pins-Quartz-51');
  await giveSecuPass(bob, 'Bob-SecuPass-pins-Lantern-52');
}, 60_000);
afterAll(() => server?.close());

describe('contact pins on the server', () => {
  it('routes: signed-in only, own list only, counter + 1 only, shape checked, SecuPass needed', async () => {
    expect((await call(server, null, 'GET', `${API}/user/contact-pins`)).status).toBe(401);
    expect((await call(server, null, 'PUT', `${API}/user/contact-pins`, { envelope: {} })).status).toBe(401);
    expect(await getContactPins(alice.client)).toEqual({ counter: 0, envelope: null });

    const store = await storeOf(alice);
    await store.set(`${bob.userUuid}:signing`, FP('b'));
    const stored = await getContactPins(alice.client);
    expect(stored.counter).toBe(1);
    expect(JSON.stringify(stored)).not.toContain(FP('b'));
    // Bob sees his own (empty) list, never Alice's.
    expect(await getContactPins(bob.client)).toEqual({ counter: 0, envelope: null });

    // The same counter again, or a jump: 409 with the stored counter; nothing changes.
    const again = await expectBackendError(await call(server, alice.session, 'PUT', `${API}/user/contact-pins`, { envelope: stored.envelope }), 409, 'ConflictException');
    expect(again.metadata).toMatchObject({ counter: 1 });
    await expectBackendError(await call(server, alice.session, 'PUT', `${API}/user/contact-pins`, { envelope: { ...stored.envelope!, counter: 5 } }), 409, 'ConflictException');
    expect((await getContactPins(alice.client)).counter).toBe(1);
    // Bad shapes: 400 in the error shape.
    for (const envelope of [{}, { ...stored.envelope!, counter: 0 }, { ...stored.envelope!, iv: 'not base64url!' }, { ...stored.envelope!, extra: 1 }]) {
      await expectBackendError(await call(server, alice.session, 'PUT', `${API}/user/contact-pins`, { envelope }), 400, 'ValidationException');
    }
    // Without an active SecuPass there is nothing to seal with: 404.
    await expectBackendError(await call(server, carol.session, 'PUT', `${API}/user/contact-pins`, { envelope: { ...stored.envelope!, counter: 1 } }), 404, 'AccessDescriptorNotFoundException');
  });

  it('every device reads the same list; concurrent saves merge; verification is per key; local pins migrate once', async () => {
    const deviceA = await storeOf(bob);
    const deviceB = await storeOf(bob);
    await deviceA.set(`${alice.userUuid}:signing`, FP('a'));
    // Device B saves with a stale counter: 409 inside, reloaded, merged, saved.
    await deviceB.set(`${alice.userUuid}:encryption`, FP('c'));
    const deviceC = await storeOf(bob);
    expect(await deviceC.get(`${alice.userUuid}:signing`)).toBe(FP('a'));
    expect(await deviceC.get(`${alice.userUuid}:encryption`)).toBe(FP('c'));
    expect(deviceC.isVerified(`${alice.userUuid}:signing`, FP('a'))).toBe(false);
    await deviceC.markVerified(`${alice.userUuid}:signing`, FP('a'));
    expect((await storeOf(bob)).isVerified(`${alice.userUuid}:signing`, FP('a'))).toBe(true);
    // A moved pin is no longer verified.
    await deviceC.set(`${alice.userUuid}:signing`, FP('d'));
    const after = await storeOf(bob);
    expect(after.isVerified(`${alice.userUuid}:signing`, FP('d'))).toBe(false);
    expect(after.isVerified(`${alice.userUuid}:signing`, FP('a'))).toBe(false);

    // A browser with pins of the first version (local only): merged into the server list on load, then gone locally.
    const storage = createMemoryStorage();
    storage.setItem(`${LEGACY_PIN_PREFIX}${bob.keys!.signing.keyId}`, JSON.stringify({ 'legacy-user:encryption': FP('e'), [`${alice.userUuid}:signing`]: FP('f') }));
    const migrated = await storeOf(bob, storage);
    expect(await migrated.get('legacy-user:encryption')).toBe(FP('e'));
    expect(await migrated.get(`${alice.userUuid}:signing`)).toBe(FP('d')); // the server list wins
    expect(storage.getItem(`${LEGACY_PIN_PREFIX}${bob.keys!.signing.keyId}`)).toBeNull();
    expect(Number(storage.getItem(`${PIN_COUNTER_PREFIX}${bob.keys!.signing.keyId}`))).toBe((await getContactPins(bob.client)).counter);
    expect(await (await storeOf(bob)).get('legacy-user:encryption')).toBe(FP('e'));
  });

  it('the highest counters of E2E room files: raised in one save, read by every device, only upwards, the least recently raised dropped past the bound', async () => {
    const device = await storeOf(bob);
    await device.raiseFileCounters([{ fileId: 'file-a', counter: 2 }, { fileId: 'file-b', counter: 1 }]);
    await device.raiseFileCounters([{ fileId: 'file-a', counter: 1 }]); // lower: nothing saved
    const other = await storeOf(bob);
    expect([other.fileCounter('file-a'), other.fileCounter('file-b'), other.fileCounter('file-c')]).toEqual([2, 1, 0]);
    const before = (await getContactPins(bob.client)).counter;
    await other.raiseFileCounters([{ fileId: 'file-a', counter: 1 }]);
    expect((await getContactPins(bob.client)).counter).toBe(before);
    // file-b raised again: file-a is now the least recently raised and goes first.
    await other.raiseFileCounters([{ fileId: 'file-b', counter: 5 }]);
    await other.raiseFileCounters(Array.from({ length: FILE_COUNTERS_MAX - 1 }, (_, i) => ({ fileId: `bulk-${i}`, counter: 1 })));
    const bounded = (await storeOf(bob)).snapshot().fileCounters!;
    expect(Object.keys(bounded)).toHaveLength(FILE_COUNTERS_MAX);
    expect([bounded['file-a'], bounded['file-b'], bounded[`bulk-${FILE_COUNTERS_MAX - 2}`]]).toEqual([undefined, 5, 1]);
  });

  it('the highest member list version per E2E room: read by every device, only upwards, the least recently raised room dropped past the bound', async () => {
    const device = await storeOf(bob);
    await device.raiseMemberListVersions([{ roomId: 'room-a', version: 3 }, { roomId: 'room-b', version: 1 }]);
    const before = (await getContactPins(bob.client)).counter;
    await device.raiseMemberListVersions([{ roomId: 'room-a', version: 2 }]); // lower: nothing saved
    expect((await getContactPins(bob.client)).counter).toBe(before);
    const other = await storeOf(bob);
    expect([other.memberListVersion('room-a'), other.memberListVersion('room-b'), other.memberListVersion('room-c')]).toEqual([3, 1, 0]);
    // room-a raised again: room-b is now the least recently raised and goes first.
    await other.raiseMemberListVersions([{ roomId: 'room-a', version: 4 }]);
    await other.raiseMemberListVersions(Array.from({ length: MEMBER_LIST_VERSIONS_MAX - 1 }, (_, i) => ({ roomId: `bulk-${i}`, version: 1 })));
    const bounded = (await storeOf(bob)).snapshot().memberListVersions!;
    expect(Object.keys(bounded)).toHaveLength(MEMBER_LIST_VERSIONS_MAX);
    expect([bounded['room-b'], bounded['room-a'], bounded[`bulk-${MEMBER_LIST_VERSIONS_MAX - 2}`]]).toEqual([undefined, 4, 1]);
  });

  it('a SecuPass reset drops the list and keeps the counter; the new list continues above it', async () => {
    const before = (await getContactPins(alice.client)).counter;
    expect(before).toBeGreaterThan(0);
    expect((await call(server, admin, 'POST', `${API}/admin/users/${alice.userUuid}/secupass/reset`)).status).toBe(204);
    expect(await getContactPins(alice.client)).toEqual({ counter: before, envelope: null });
    alice.crypto = (await e2eActor(server, alice.session)).crypto;
    await giveSecuPass(alice, 'Alice-New-SecuPass-pins-Orchard-53');
    const fresh = await storeOf(alice);
    expect(await fresh.get(`${bob.userUuid}:signing`)).toBeUndefined();
    await fresh.set(`${bob.userUuid}:signing`, FP('9'));
    expect((await getContactPins(alice.client)).counter).toBe(before + 1);
    // Direct client call with a sealed list of the old counter: refused.
    const sealed = (await getContactPins(alice.client)).envelope!;
    await expect(putContactPins(alice.client, sealed)).rejects.toMatchObject({ status: 409 });
  });
});
