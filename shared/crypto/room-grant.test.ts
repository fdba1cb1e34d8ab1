import { describe, expect, it } from 'vitest';
import { fromBase64Url } from './bytes';
import { importPublicKey } from './keys';
import { ROOM_KEY_EPOCH, signRoomKeyGrant, verifyRoomKeyGrant, wrappedRoomKeySha256, type RoomKeyGrantExpectation, type SignedRoomKeyGrant } from './room-grant';
import { CryptoService, type CryptoApi } from './service';
import { proxiedService } from './test-helpers/proxied-service';

// A frozen vector (README section 7 "Who made my copy of the room key"): a grant signed once with a
// throwaway P-256 key; the hash is also reproducible with Python's hashlib over the canonical JSON
// {"ciphertext":"AAAA","enc":"BAAA","recipientKeyId":"bWVtYmVyLWtleS1pZC0xNg","version":1}.
const KAT = {
  granterPublicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEmzznDdEugGhD5hAjCI7IVsLoEDUNl-jqNxcbmyZfdN0-yAMVbQtUdMcAAP9A-9JctaAPrpZwbY2i9UHkpzdhbw',
  wrapped: { version: 1 as const, recipientKeyId: 'bWVtYmVyLWtleS1pZC0xNg', enc: 'BAAA', ciphertext: 'AAAA' },
  signed: {
    grant: {
      format: 1 as const,
      roomId: '5f0c6f1e-3a51-4d2b-9a63-0d8f3c1b2a77',
      epoch: 1,
      recipientUserId: '7b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      recipientKeyId: 'bWVtYmVyLWtleS1pZC0xNg',
      wrappedKeySha256: 'rEHKc2shr8bKZcWUqivmh5JnjSIGo4Wb5BGqp1B4VRg',
      granterUserId: '0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9',
      signerKeyId: 'Z3JhbnRlci1rZXktaWQtMTY',
      createdAt: '2026-11-28T16:00:00.000Z',
    },
    signature: 'VLqlRLpEhk15m5qwzS2lK_La-Qk-oF4d4lbSx41yerzRW0BP04CSVzQGoDP6sMa54XvLQdbaJtp7Dnnusz4VoQ',
  } satisfies SignedRoomKeyGrant,
};
const expectedOf = (overrides: Partial<RoomKeyGrantExpectation> = {}): RoomKeyGrantExpectation => ({
  roomId: KAT.signed.grant.roomId, epoch: 1, recipientUserId: KAT.signed.grant.recipientUserId, wrapped: KAT.wrapped, granterUserId: KAT.signed.grant.granterUserId, ...overrides,
});

describe('room-key grants: known answer and mutations', () => {
  it('the frozen grant verifies; the copy hash is SHA-256 of the canonical JSON', async () => {
    expect(await wrappedRoomKeySha256(KAT.wrapped)).toBe(KAT.signed.grant.wrappedKeySha256);
    const key = await importPublicKey(fromBase64Url(KAT.granterPublicKey), 'signing');
    expect(await verifyRoomKeyGrant(KAT.signed, key, expectedOf())).toEqual(KAT.signed.grant);
  });

  it('every change is refused: signed fields, another copy / room / epoch / recipient / granter, another key, a missing field or signature', async () => {
    const key = await importPublicKey(fromBase64Url(KAT.granterPublicKey), 'signing');
    const refuse = (signed: unknown, expected = expectedOf(), with_ = key) => expect(verifyRoomKeyGrant(signed as SignedRoomKeyGrant, with_, expected)).rejects.toMatchObject({ code: 'room-key-grant-invalid' });
    // A server that makes its own copy: its hash differs from the signed one.
    await refuse(KAT.signed, expectedOf({ wrapped: { ...KAT.wrapped, ciphertext: 'AAAB' } }));
    await refuse(KAT.signed, expectedOf({ wrapped: { ...KAT.wrapped, recipientKeyId: 'b3RoZXIta2V5' } }));
    await refuse(KAT.signed, expectedOf({ roomId: 'another-room' }));
    await refuse(KAT.signed, expectedOf({ epoch: 2 }));
    await refuse(KAT.signed, expectedOf({ recipientUserId: 'someone-else' }));
    await refuse(KAT.signed, expectedOf({ granterUserId: 'not-the-granter' }));
    // A signed field edited (so the hash matches another copy): the signature breaks.
    for (const [field, value] of Object.entries({ roomId: 'x', epoch: 2, recipientUserId: 'x', recipientKeyId: 'x', wrappedKeySha256: 'x', granterUserId: 'x', signerKeyId: 'x', createdAt: 'x' })) {
      await refuse({ ...KAT.signed, grant: { ...KAT.signed.grant, [field]: value } });
    }
    const other = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    await refuse(KAT.signed, expectedOf(), other.publicKey);
    await refuse({ ...KAT.signed, signature: '' });
    await refuse({ grant: KAT.signed.grant });
    await refuse({ ...KAT.signed, grant: { ...KAT.signed.grant, format: 2 } });
    await refuse({ ...KAT.signed, grant: { ...KAT.signed.grant, signerKeyId: '' } });
    await refuse(null);
  });

  it('a fresh signature round-trips', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const input = { roomId: 'room-1', epoch: ROOM_KEY_EPOCH, recipientUserId: 'bob', wrapped: KAT.wrapped, granterUserId: 'alice', createdAt: '2026-11-28T16:00:00.000Z' };
    const signed = await signRoomKeyGrant(input, { privateKey: pair.privateKey, keyId: 'alice-key' });
    expect(signed.grant.signerKeyId).toBe('alice-key');
    expect((await verifyRoomKeyGrant(signed, pair.publicKey, { roomId: 'room-1', epoch: 1, recipientUserId: 'bob', wrapped: KAT.wrapped, granterUserId: 'alice' })).recipientKeyId).toBe(KAT.wrapped.recipientKeyId);
  });
});

for (const [name, make] of [['direct (Node)', () => new CryptoService()], ['through the Worker proxy', proxiedService]] as const) {
  it(`the owner signs a member's copy with her key handle; the member verifies it (${name}); another key or copy is refused`, { timeout: 60_000 }, async () => {
    const owner: CryptoApi = make();
    const alice = await owner.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
    const bob = await owner.setupSecuPass({ userId: 'bob', passphrase: 'bob passphrase' });
    const room = await owner.generateRoomKey();
    const wrapped = await owner.wrapRoomKey({ roomKey: room.handle, roomId: 'room-9', recipientPublicKey: bob.keys.encryption.publicKey });
    const signed = await owner.signRoomKeyGrant({ signingKey: alice.keys.signing.handle, roomId: 'room-9', epoch: ROOM_KEY_EPOCH, recipientUserId: 'bob', wrapped, granterUserId: 'alice', createdAt: new Date().toISOString() });
    expect(signed.grant.signerKeyId).toBe(alice.keys.signing.keyId);
    const expected = { roomId: 'room-9', epoch: 1, recipientUserId: 'bob', wrapped, granterUserId: 'alice' };
    expect((await owner.verifyRoomKeyGrant({ signed, signerPublicKey: alice.keys.signing.publicKey, expected })).recipientKeyId).toBe(bob.keys.encryption.keyId);
    await expect(owner.verifyRoomKeyGrant({ signed, signerPublicKey: bob.keys.signing.publicKey, expected })).rejects.toMatchObject({ code: 'room-key-grant-invalid' });
    const serverMade = await owner.wrapRoomKey({ roomKey: (await owner.generateRoomKey()).handle, roomId: 'room-9', recipientPublicKey: bob.keys.encryption.publicKey });
    await expect(owner.verifyRoomKeyGrant({ signed, signerPublicKey: alice.keys.signing.publicKey, expected: { ...expected, wrapped: serverMade } })).rejects.toMatchObject({ code: 'room-key-grant-invalid' });
  });
}
