import { describe, expect, it } from 'vitest';
import { fromBase64Url } from './bytes';
import { importPublicKey } from './keys';
import { isListedOwner, isListedWriter, listedMember, roomMemberListSha256, signRoomMemberList, verifyRoomMemberList, type SignedRoomMemberList } from './room-members';
import { CryptoService, type CryptoApi } from './service';
import { proxiedService } from './test-helpers/proxied-service';

// A frozen vector (README section 7 "Who is a member: the signed member list"): a list signed once
// with a throwaway P-256 key. Its hash is reproducible with Python:
// base64url(hashlib.sha256(json.dumps(list, sort_keys=True, separators=(',', ':')).encode())).
const OWNER = '0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9';
const EDITOR = '7b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const VIEWER = 'c0ffee00-1111-4222-8333-444455556666';
const KAT = {
  signerPublicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEBlb8KBvaQvjSTDj9vfNFAzAnyMxKkofqmDdbUZWrKSVkcjeYqnmSQ_GYqdddaf_2tEzJF1f5e7zzVypAJjE2YA',
  listSha256: 'dXcHam6rqFoChibVJ6m3wYW72F5XR9UOiQoAhTBmQ04',
  signed: {
    list: {
      format: 1 as const,
      roomId: '5f0c6f1e-3a51-4d2b-9a63-0d8f3c1b2a77',
      version: 3,
      members: [
        { userId: OWNER, email: 'owner@example.test', role: 'OWNER' as const, signingKeyId: 'Z3JhbnRlci1rZXktaWQtMTY', encryptionKeyId: 'b3duZXItZW5jcnlwdA' },
        { userId: EDITOR, email: 'editor@example.test', role: 'EDITOR' as const, signingKeyId: 'ZWRpdG9yLXNpZ25pbmc', encryptionKeyId: 'ZWRpdG9yLWVuY3J5cHQ' },
        { userId: VIEWER, email: 'viewer@example.test', role: 'VIEWER' as const, signingKeyId: null, encryptionKeyId: null },
      ],
      signerUserId: OWNER,
      signerKeyId: 'Z3JhbnRlci1rZXktaWQtMTY',
      createdAt: '2026-11-28T20:00:00.000Z',
    },
    signature: 'oINEZwJbjXBQSE0wyLPHYUEvRH1oic0vtg-KPK_7iBW74OFUbDXbxWeP3L-wMZQRcnkK9hkPwtUAUENrY99fVg',
  } satisfies SignedRoomMemberList,
};
const roomId = KAT.signed.list.roomId;
const members = KAT.signed.list.members;

describe('signed member lists: known answer and mutations', () => {
  it('the frozen list verifies; its hash is SHA-256 of the canonical JSON; roles are read from it', async () => {
    expect(await roomMemberListSha256(KAT.signed.list)).toBe(KAT.listSha256);
    const key = await importPublicKey(fromBase64Url(KAT.signerPublicKey), 'signing');
    const list = await verifyRoomMemberList(KAT.signed, key, { roomId, minVersion: 3 });
    expect(list).toEqual(KAT.signed.list);
    expect([isListedWriter(list, OWNER), isListedWriter(list, EDITOR), isListedWriter(list, VIEWER), isListedWriter(list, 'invented')]).toEqual([true, true, false, false]);
    expect([isListedOwner(list, OWNER), isListedOwner(list, EDITOR)]).toEqual([true, false]);
    expect(listedMember(list, 'invented')).toBeUndefined();
  });

  it('every change is refused: an added, removed or promoted member, another room, an older version, another key, a broken shape', async () => {
    const key = await importPublicKey(fromBase64Url(KAT.signerPublicKey), 'signing');
    const refuse = (signed: unknown, expected: { roomId: string; minVersion?: number } = { roomId }, with_ = key) =>
      expect(verifyRoomMemberList(signed as SignedRoomMemberList, with_, expected)).rejects.toMatchObject({ code: 'room-member-list-invalid' });
    const withMembers = (m: unknown[]) => ({ ...KAT.signed, list: { ...KAT.signed.list, members: m } });
    // The server adds a member (sorted in, so only the signature can tell), drops one, promotes the VIEWER.
    await refuse(withMembers([...members, { userId: 'ffffffff-0000-4000-8000-000000000000', email: 'invented@example.test', role: 'EDITOR', signingKeyId: 'x', encryptionKeyId: 'y' }]));
    await refuse(withMembers(members.slice(0, 2)));
    await refuse(withMembers([members[0], members[1], { ...members[2], role: 'EDITOR' }]));
    await refuse(withMembers([members[0], { ...members[1], encryptionKeyId: 'c2VydmVyLWtleQ' }, members[2]]));
    // Another room; a list older than one the reader saw (a rollback: its own code).
    await refuse(KAT.signed, { roomId: 'another-room' });
    await expect(verifyRoomMemberList(KAT.signed, key, { roomId, minVersion: 4 })).rejects.toMatchObject({ code: 'room-member-list-rolled-back' });
    for (const [field, value] of Object.entries({ roomId: 'x', version: 4, signerKeyId: 'x', createdAt: 'x' })) {
      await refuse({ ...KAT.signed, list: { ...KAT.signed.list, [field]: value } });
    }
    // Signed by someone the list does not hold as OWNER; unsorted or doubled members; a bad shape.
    await refuse({ ...KAT.signed, list: { ...KAT.signed.list, signerUserId: EDITOR } });
    await refuse(withMembers([members[1], members[0], members[2]]));
    await refuse(withMembers([members[0], members[0], members[1]]));
    await refuse(withMembers([members[0], members[1], { ...members[2], role: 'ADMIN' }]));
    await refuse(withMembers([members[0], members[1], { ...members[2], extra: 1 }]));
    const other = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    await refuse(KAT.signed, { roomId }, other.publicKey);
    await refuse({ ...KAT.signed, signature: '' });
    await refuse({ list: KAT.signed.list });
    await refuse({ ...KAT.signed, list: { ...KAT.signed.list, format: 2 } });
    await refuse({ ...KAT.signed, list: { ...KAT.signed.list, version: 0 } });
    await refuse(null);
  });

  it('signing sorts the members and refuses a doubled user or a list without its signer as OWNER', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const input = { roomId, version: 1, members: [members[2]!, members[0]!], signerUserId: OWNER, createdAt: '2026-11-28T20:00:00.000Z' };
    const signed = await signRoomMemberList(input, { privateKey: pair.privateKey, keyId: 'owner-key' });
    expect(signed.list.members.map((m) => m.userId)).toEqual([OWNER, VIEWER]);
    expect((await verifyRoomMemberList(signed, pair.publicKey, { roomId })).signerKeyId).toBe('owner-key');
    await expect(signRoomMemberList({ ...input, members: [members[0]!, members[0]!] }, { privateKey: pair.privateKey, keyId: 'k' })).rejects.toMatchObject({ code: 'room-member-list-invalid' });
    await expect(signRoomMemberList({ ...input, signerUserId: EDITOR }, { privateKey: pair.privateKey, keyId: 'k' })).rejects.toMatchObject({ code: 'room-member-list-invalid' });
  });
});

for (const [name, make] of [['direct (Node)', () => new CryptoService()], ['through the Worker proxy', proxiedService]] as const) {
  it(`an OWNER signs the member list with her key handle; a reader verifies it (${name}); another key is refused`, { timeout: 60_000 }, async () => {
    const service: CryptoApi = make();
    const alice = await service.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
    const bob = await service.setupSecuPass({ userId: 'bob', passphrase: 'bob passphrase' });
    const entries = [
      { userId: 'alice', email: 'alice@example.test', role: 'OWNER' as const, signingKeyId: alice.keys.signing.keyId, encryptionKeyId: alice.keys.encryption.keyId },
      { userId: 'bob', email: 'bob@example.test', role: 'EDITOR' as const, signingKeyId: bob.keys.signing.keyId, encryptionKeyId: bob.keys.encryption.keyId },
    ];
    const signed = await service.signRoomMemberList({ signingKey: alice.keys.signing.handle, roomId: 'room-9', version: 1, members: entries, signerUserId: 'alice', createdAt: new Date().toISOString() });
    expect(signed.list.signerKeyId).toBe(alice.keys.signing.keyId);
    expect((await service.verifyRoomMemberList({ signed, signerPublicKey: alice.keys.signing.publicKey, expected: { roomId: 'room-9' } })).members).toHaveLength(2);
    await expect(service.verifyRoomMemberList({ signed, signerPublicKey: bob.keys.signing.publicKey, expected: { roomId: 'room-9' } })).rejects.toMatchObject({ code: 'room-member-list-invalid' });
  });
}
