import { describe, expect, it } from 'vitest';
import kat from '../../tests/fixtures/crypto/room-kat.json';
import { fromBase64Url, fromHex, toBase64Url, toHex, utf8Encode } from './bytes';
import { unwrapFileKey, wrapFileKey } from './file-key';
import { importPublicKey, importUserKeyPair } from './keys';
import {
  ROOM_KEY_FILE_ID,
  decryptRoomName,
  deriveRoomKeys,
  encryptRoomName,
  generateRoomKey,
  openRoomFileMetadata,
  sealRoomFileMetadata,
  unwrapRoomFileKey,
  verifyRoomFileMetadata,
  wrapRoomFileKey,
  type RoomFileMetadata,
} from './room';
import { CryptoService, type CryptoApi } from './service';
import { createDecryptStream } from './stream-decoder';
import { STREAM_HEADER_BYTES } from './stream-format';
import { sealRecordRun } from './stream-parts';
import { contextFromHeader } from './stream-records';
import { bytesToStream, collectStream } from './stream-encoder';
import { hkdfSha256, sha256, subtle } from './subtle';
import { katPlaintext } from './test-helpers/known-answers';
import { checkRoomKnownAnswers, type RoomKnownAnswers } from './test-helpers/room-known-answers';
import { proxiedService } from './test-helpers/proxied-service';

const roomKey = fromHex(kat.roomKey);
const fileRef = { roomId: kat.file.roomId, fileId: kat.file.fileId, version: kat.file.version };

describe('data rooms: known answers (tests/fixtures/crypto/room-kat.json)', () => {
  it('the shared checker (also run in Chromium) reproduces every vector', async () => {
    const results = await checkRoomKnownAnswers(kat as unknown as RoomKnownAnswers);
    expect(results.length).toBe(15);
    for (const result of results) expect(result.actual, result.name).toBe(result.expected);
  });

  it('derives the three subkeys with their labels', async () => {
    for (const [name, label] of [['names', 'Kuvert room v1 names'], ['fileKeys', 'Kuvert room v1 file keys'], ['metadata', 'Kuvert room v1 metadata']] as const) {
      expect(toHex(await hkdfSha256({ ikm: roomKey, salt: new Uint8Array(0), info: utf8Encode(label), length: 32 }))).toBe(kat.subkeys[name]);
    }
  });

  it('reproduces the sealed names and file key byte for byte, and opens them', async () => {
    const keys = await deriveRoomKeys(roomKey);
    for (const item of kat.names) {
      const ref = { roomId: kat.roomId, kind: item.kind as 'room' | 'folder' | 'file', itemId: item.itemId };
      expect(await encryptRoomName(keys, ref, item.name, fromHex(item.iv))).toBe(item.sealed);
      expect(await decryptRoomName(keys, ref, item.sealed)).toBe(item.name);
    }
    expect(await wrapRoomFileKey(keys, fileRef, fromHex(kat.file.fileKey), fromHex(kat.file.fileKeyIv))).toBe(kat.file.wrappedFileKey);
    expect(toHex(await unwrapRoomFileKey(keys, fileRef, kat.file.wrappedFileKey))).toBe(kat.file.fileKey);
  });

  it('opens the member copy of the room key (HPKE, file id "room-key") and the whole file', async () => {
    const member = await importUserKeyPair({ usage: 'encryption', pkcs8: fromHex(kat.roomKeyCopy.memberPkcs8), publicKeySpki: fromHex(kat.roomKeyCopy.memberSpki) });
    const opened = await unwrapFileKey({
      wrapped: kat.roomKeyCopy.wrapped as Parameters<typeof unwrapFileKey>[0]['wrapped'],
      recipientKeyPair: member,
      binding: { contextId: kat.roomId, fileId: ROOM_KEY_FILE_ID, recipientKeyId: kat.roomKeyCopy.memberKeyId },
    });
    expect(toHex(opened)).toBe(kat.roomKey);
    const keys = await deriveRoomKeys(opened);
    const signed = await openRoomFileMetadata(keys, fileRef, kat.file.sealedMetadata);
    const metadata = await verifyRoomFileMetadata(signed, await importPublicKey(fromHex(kat.file.signerSpki), 'signing'), { ...fileRef, name: 'Übersicht.txt', size: kat.file.plaintextLength });
    expect(metadata).toEqual(kat.file.metadata);
    const fileKey = await unwrapRoomFileKey(keys, fileRef, kat.file.wrappedFileKey);
    const plaintext = await collectStream(
      bytesToStream(fromHex(kat.file.ciphertext)).pipeThrough(createDecryptStream({ fileKey, plaintextLength: metadata.size, expectedHeaderHash: fromBase64Url(metadata.headerSha256) })),
    );
    expect(plaintext).toEqual(katPlaintext(kat.file.plaintextLength));
    expect(toBase64Url(await sha256(plaintext))).toBe(metadata.contentSha256);
  });
});

async function signer() {
  const pair = (await subtle().generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  return pair;
}

function flipChar(sealed: string, at: number): string {
  const bytes = fromBase64Url(sealed.slice(3));
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return `r1.${toBase64Url(bytes)}`;
}

describe('data rooms: what a reader detects', () => {
  const roomId = 'room-1';
  const base: RoomFileMetadata = {
    format: 1, roomId, fileId: 'file-1', version: 1, name: 'Bericht.pdf', size: 1234, headerSha256: 'h', contentSha256: 'c',
    uploaderUserId: 'user-1', uploaderEmail: 'a@example.test', signerKeyId: 'k', createdAt: '2026-11-25T00:00:00.000Z',
  };

  it('a tampered name, or a name moved to another item / kind / room → room-name-invalid', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const ref = { roomId, kind: 'file' as const, itemId: 'file-1' };
    const sealed = await encryptRoomName(keys, ref, 'Geheim.docx');
    await expect(decryptRoomName(keys, ref, flipChar(sealed, 20))).rejects.toMatchObject({ code: 'room-name-invalid' });
    await expect(decryptRoomName(keys, ref, flipChar(sealed, 2))).rejects.toMatchObject({ code: 'room-name-invalid' });
    for (const other of [{ ...ref, itemId: 'file-2' }, { ...ref, kind: 'folder' as const }, { ...ref, roomId: 'room-2' }]) {
      await expect(decryptRoomName(keys, other, sealed)).rejects.toMatchObject({ code: 'room-name-invalid' });
    }
    await expect(decryptRoomName(await deriveRoomKeys(generateRoomKey()), ref, sealed)).rejects.toMatchObject({ code: 'room-name-invalid' });
    await expect(decryptRoomName(keys, ref, 'Geheim.docx')).rejects.toMatchObject({ code: 'room-name-invalid' });
  });

  it('a swapped file key (other file or version) or a changed one → room-file-key-unwrap-failed', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const ref = { roomId, fileId: 'file-1', version: 1 };
    const wrapped = await wrapRoomFileKey(keys, ref, generateRoomKey());
    const otherFiles = await wrapRoomFileKey(keys, { ...ref, fileId: 'file-2' }, generateRoomKey());
    await expect(unwrapRoomFileKey(keys, ref, otherFiles)).rejects.toMatchObject({ code: 'room-file-key-unwrap-failed' });
    await expect(unwrapRoomFileKey(keys, { ...ref, version: 2 }, wrapped)).rejects.toMatchObject({ code: 'room-file-key-unwrap-failed' });
    await expect(unwrapRoomFileKey(keys, ref, flipChar(wrapped, 30))).rejects.toMatchObject({ code: 'room-file-key-unwrap-failed' });
    expect(await unwrapRoomFileKey(keys, ref, wrapped)).toHaveLength(32);
  });

  it('a fresh file key wrapped by a member (the room key is every member\'s) and the file re-encrypted under the signed header → stream-header-mismatch', async () => {
    // The KAT file as signed: its header hash is in the uploader's metadata.
    const keys = await deriveRoomKeys(roomKey);
    const fileKey = await unwrapRoomFileKey(keys, fileRef, kat.file.wrappedFileKey);
    const signed = fromBase64Url(kat.file.metadata.headerSha256);
    const genuine = fromHex(kat.file.ciphertext);
    const header = genuine.subarray(0, STREAM_HEADER_BYTES);
    // The forger: another plaintext of the same size under a key of her own, the original header kept.
    const forgedKey = generateRoomKey();
    const forgedPlaintext = new Uint8Array(kat.file.plaintextLength).fill(0x41);
    // (a run from record 0 starts with the context's header: the original one)
    const forged = await sealRecordRun(await contextFromHeader(forgedKey, header), { firstRecord: 0, plaintext: forgedPlaintext, final: true });
    expect(toHex(forged.subarray(0, STREAM_HEADER_BYTES))).toBe(toHex(header));
    const read = (key: Uint8Array, ciphertext: Uint8Array, headerDerivedFromKey: boolean) =>
      collectStream(bytesToStream(ciphertext).pipeThrough(createDecryptStream({ fileKey: key, plaintextLength: kat.file.plaintextLength, expectedHeaderHash: signed, headerDerivedFromKey })));
    // The signed header hash alone does not see it (why readers of room files ask for the derived header)…
    expect(await read(forgedKey, forged, false)).toEqual(forgedPlaintext);
    // …with it the key is pinned: refused, and the genuine file still reads.
    await expect(read(forgedKey, forged, true)).rejects.toMatchObject({ code: 'stream-header-mismatch' });
    expect(await read(fileKey, genuine, true)).toEqual(katPlaintext(kat.file.plaintextLength));
  });

  it('other bytes sealed under the genuine file key (a member who unwrapped it) → stream-content-mismatch, against the signed content hash', async () => {
    const fileKey = await unwrapRoomFileKey(await deriveRoomKeys(roomKey), fileRef, kat.file.wrappedFileKey);
    const header = fromHex(kat.file.ciphertext).subarray(0, STREAM_HEADER_BYTES);
    const resealed = await sealRecordRun(await contextFromHeader(fileKey, header), { firstRecord: 0, plaintext: new Uint8Array(kat.file.plaintextLength).fill(0x42), final: true });
    const read = (ciphertext: Uint8Array) =>
      collectStream(bytesToStream(ciphertext).pipeThrough(createDecryptStream({
        fileKey, plaintextLength: kat.file.plaintextLength, expectedHeaderHash: fromBase64Url(kat.file.metadata.headerSha256), headerDerivedFromKey: true,
        expectedPlaintextSha256: fromBase64Url(kat.file.metadata.contentSha256),
      })));
    await expect(read(resealed)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    expect(await read(fromHex(kat.file.ciphertext))).toEqual(katPlaintext(kat.file.plaintextLength));
  });

  it('metadata: signed fields checked against what is shown; other signer, other file, tampering refused', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const uploader = await signer();
    const ref = { roomId, fileId: 'file-1', version: 1 };
    const sealed = await sealRoomFileMetadata(keys, base, uploader.privateKey);
    const signed = await openRoomFileMetadata(keys, ref, sealed);
    expect(await verifyRoomFileMetadata(signed, uploader.publicKey, { ...ref, name: 'Bericht.pdf', size: 1234, uploaderUserId: 'user-1' })).toEqual(base);
    // The server shows another name or size than the uploader signed.
    await expect(verifyRoomFileMetadata(signed, uploader.publicKey, { ...ref, name: 'Other.pdf' })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
    await expect(verifyRoomFileMetadata(signed, uploader.publicKey, { ...ref, size: 1235 })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
    await expect(verifyRoomFileMetadata(signed, uploader.publicKey, { ...ref, uploaderUserId: 'user-2' })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
    // A member (who holds the room key) edits the signed size: the signature breaks.
    const edited = { ...signed, metadata: { ...signed.metadata, size: 1 } };
    await expect(verifyRoomFileMetadata(edited, uploader.publicKey, ref)).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    await expect(verifyRoomFileMetadata(signed, (await signer()).publicKey, ref)).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    // Metadata of another file or version, or changed ciphertext, does not open.
    await expect(openRoomFileMetadata(keys, { ...ref, fileId: 'file-2' }, sealed)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    await expect(openRoomFileMetadata(keys, { ...ref, version: 2 }, sealed)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    await expect(openRoomFileMetadata(keys, ref, flipChar(sealed, 40))).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    // Signed for file-1 but (by a member) sealed as file-2's metadata: opens, and the id check names it.
    const moved = await sealRoomFileMetadata(keys, base, uploader.privateKey);
    const resealed = await openRoomFileMetadata(keys, ref, moved);
    await expect(verifyRoomFileMetadata(resealed, uploader.publicKey, { ...ref, fileId: 'file-2' })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
  });

  it('the signer of a file: a valid signature by a member who may not write is refused; an empty signer is no signer', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const viewer = await signer();
    const ref = { roomId, fileId: 'file-1', version: 1 };
    // A VIEWER (she holds the room key) re-signs the uploader's metadata with her own key: the signature is hers and valid.
    const signed = await openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, base, viewer.privateKey));
    for (const role of ['VIEWER', 'PREVIEWER']) {
      await expect(verifyRoomFileMetadata(signed, viewer.publicKey, { ...ref, uploaderUserId: 'user-1', signer: { userId: 'user-3', role } })).rejects.toMatchObject({ code: 'room-signer-not-writer' });
    }
    for (const role of ['OWNER', 'EDITOR', null]) {
      expect(await verifyRoomFileMetadata(signed, viewer.publicKey, { ...ref, signer: { userId: 'user-3', role } })).toEqual(base);
    }
    // The role is checked only once the signature holds: a forged signature stays a signature error.
    await expect(verifyRoomFileMetadata(signed, (await signer()).publicKey, { ...ref, signer: { userId: 'user-3', role: 'VIEWER' } })).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    // Metadata that names no signer key or no uploader does not open as ours.
    for (const emptied of [{ signerKeyId: '' }, { uploaderUserId: '' }]) {
      const sealed = await sealRoomFileMetadata(keys, { ...base, ...emptied }, viewer.privateKey);
      await expect(openRoomFileMetadata(keys, ref, sealed)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    }
  });

  it('roles at signing time: metadata bound to a member list version is checked against the role in that list (README section 7)', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const editor = await signer();
    const ref = { roomId, fileId: 'file-1', version: 1 };
    const bound = { ...base, memberListVersion: 3 };
    const signed = await openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, bound, editor.privateKey));
    expect(signed.metadata.memberListVersion).toBe(3);
    // An EDITOR then, a VIEWER (or gone) now: her file stays valid — the role of the time counts, not today's.
    expect(await verifyRoomFileMetadata(signed, editor.publicKey, { ...ref, signer: { userId: 'user-1', role: 'VIEWER' }, signerAtSigning: { memberListVersion: 3, role: 'EDITOR' } })).toEqual(bound);
    expect(await verifyRoomFileMetadata(signed, editor.publicKey, { ...ref, signerAtSigning: { memberListVersion: 3, role: 'OWNER' } })).toEqual(bound);
    // A VIEWER or PREVIEWER then, or not a member of that list at all: refused with its own code.
    for (const role of ['VIEWER', 'PREVIEWER', null]) {
      await expect(verifyRoomFileMetadata(signed, editor.publicKey, { ...ref, signer: { userId: 'user-1', role: 'EDITOR' }, signerAtSigning: { memberListVersion: 3, role } })).rejects.toMatchObject({ code: 'room-signer-not-writer-then' });
    }
    // The role read from another list version than the signed one: a mismatch, not a role.
    await expect(verifyRoomFileMetadata(signed, editor.publicKey, { ...ref, signerAtSigning: { memberListVersion: 2, role: 'EDITOR' } })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
    const unbound = await openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, base, editor.privateKey));
    await expect(verifyRoomFileMetadata(unbound, editor.publicKey, { ...ref, signerAtSigning: { memberListVersion: 3, role: 'EDITOR' } })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
    // The version is signed: a member who binds it to another list breaks the signature.
    await expect(verifyRoomFileMetadata({ ...signed, metadata: { ...signed.metadata, memberListVersion: 2 } }, editor.publicKey, { ...ref, signerAtSigning: { memberListVersion: 2, role: 'EDITOR' } })).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    // Never of another shape.
    for (const memberListVersion of [0, -1, '3']) {
      const sealed = await sealRoomFileMetadata(keys, { ...base, memberListVersion } as unknown as typeof base, editor.privateKey);
      await expect(openRoomFileMetadata(keys, ref, sealed)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    }
  });

  it('classification and file status (issue 31 §1) are signed with the rest: a member who changes or drops them breaks the signature; metadata without them still verifies', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const editor = await signer();
    const ref = { roomId, fileId: 'file-1', version: 1 };
    const labelled = { ...base, classification: 'confidential', status: 'inProgress' } as const;
    const signed = await openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, labelled, editor.privateKey));
    expect(await verifyRoomFileMetadata(signed, editor.publicKey, ref)).toEqual(labelled);
    for (const changed of [{ classification: 'public' }, { status: 'done' }, { classification: undefined }, { status: undefined }]) {
      await expect(verifyRoomFileMetadata({ ...signed, metadata: { ...signed.metadata, ...changed } as typeof signed.metadata }, editor.publicKey, ref)).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    }
    // Added by someone else to metadata signed without them: the signature breaks too.
    const plain = await openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, base, editor.privateKey));
    expect(await verifyRoomFileMetadata(plain, editor.publicKey, ref)).toEqual(base);
    await expect(verifyRoomFileMetadata({ ...plain, metadata: { ...plain.metadata, classification: 'public' } }, editor.publicKey, ref)).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    // Never a value outside SPEC §4.
    for (const wrong of [{ classification: 'secret' }, { status: 'DONE' }, { classification: 1 }, { status: null }]) {
      const sealed = await sealRoomFileMetadata(keys, { ...base, ...wrong } as unknown as typeof base, editor.privateKey);
      await expect(openRoomFileMetadata(keys, ref, sealed)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    }
  });
});

for (const [name, make] of [['direct (Node)', () => new CryptoService()], ['through the Worker proxy', proxiedService]] as const) {
  describe(`data rooms over the CryptoApi, ${name}`, { timeout: 60_000 }, () => {
    it('owner creates a room, grants a member later; the member reads names, verifies metadata, decrypts the file', async () => {
      const owner: CryptoApi = make();
      const member: CryptoApi = make();
      const alice = await owner.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
      const bob = await member.setupSecuPass({ userId: 'bob', passphrase: 'bob passphrase' });
      const roomId = 'room-9';
      const room = await owner.generateRoomKey();
      expect(typeof room.handle).toBe('string');
      const ownCopy = await owner.wrapRoomKey({ roomKey: room.handle, roomId, recipientPublicKey: alice.keys.encryption.publicKey });
      const [sealedName] = (await owner.encryptRoomNames({ roomKey: room.handle, roomId, items: [{ kind: 'file', itemId: 'f1', name: 'Plan.txt' }] })).sealed;
      const plaintext = new Uint8Array(100_000).map((_, i) => i % 253);
      const fileKey = await owner.generateFileKey();
      const file = { roomId, fileId: 'f1', version: 1 };
      const { header, headerSha256 } = await owner.uploadStreamHeader({ fileKey: fileKey.handle, recordSize: 65_536 });
      expect(header).toHaveLength(49);
      const { ciphertext } = await owner.encryptRecordRun({ fileKey: fileKey.handle, recordSize: 65_536, firstRecord: 0, plaintext, final: true });
      const { wrapped } = await owner.wrapRoomFileKey({ roomKey: room.handle, fileKey: fileKey.handle, file });
      const { sealed } = await owner.sealRoomFileMetadata({
        roomKey: room.handle, signingKey: alice.keys.signing.handle,
        metadata: { ...file, name: 'Plan.txt', size: plaintext.length, headerSha256, contentSha256: toBase64Url(await sha256(plaintext)), uploaderUserId: 'alice', uploaderEmail: 'alice@example.test', createdAt: '2026-11-25T00:00:00.000Z' },
      });

      // Later: bob activated E2E; the owner re-opens her copy and wraps the room key to bob.
      const reopened = await owner.unwrapRoomKey({ privateKey: alice.keys.encryption.handle, roomId, wrapped: ownCopy });
      const bobCopy = await owner.wrapRoomKey({ roomKey: reopened.handle, roomId, recipientPublicKey: bob.keys.encryption.publicKey });
      expect(bobCopy.recipientKeyId).toBe(bob.keys.encryption.keyId);
      await expect(member.unwrapRoomKey({ privateKey: bob.keys.encryption.handle, roomId: 'room-10', wrapped: bobCopy })).rejects.toMatchObject({ code: 'file-key-unwrap-failed' });
      const bobRoom = await member.unwrapRoomKey({ privateKey: bob.keys.encryption.handle, roomId, wrapped: bobCopy });
      const names = await member.decryptRoomNames({ roomKey: bobRoom.handle, roomId, items: [{ kind: 'file', itemId: 'f1', sealed: sealedName ?? '' }, { kind: 'file', itemId: 'f2', sealed: sealedName ?? '' }] });
      expect(names.names).toEqual([{ ok: true, name: 'Plan.txt' }, { ok: false, code: 'room-name-invalid' }]);
      const signed = await member.openRoomFileMetadata({ roomKey: bobRoom.handle, file, sealed });
      expect(signed.metadata.signerKeyId).toBe(alice.keys.signing.keyId);
      const metadata = await member.verifyRoomFileMetadata({ signed, signerPublicKey: alice.keys.signing.publicKey, expected: { ...file, name: 'Plan.txt', size: plaintext.length } });
      await expect(member.verifyRoomFileMetadata({ signed, signerPublicKey: alice.keys.signing.publicKey, expected: { ...file, size: 1 } })).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
      const bobFileKey = await member.unwrapRoomFileKey({ roomKey: bobRoom.handle, file, wrapped });
      await expect(member.unwrapRoomFileKey({ roomKey: bobRoom.handle, file: { ...file, fileId: 'f2' }, wrapped })).rejects.toMatchObject({ code: 'room-file-key-unwrap-failed' });
      const out = await member.decryptStream({ fileKey: bobFileKey.handle, ciphertext: bytesToStream(ciphertext), plaintextLength: metadata.size, expectedHeaderSha256: metadata.headerSha256, expectedContentSha256: metadata.contentSha256 });
      expect(await collectStream(out.plaintext)).toEqual(plaintext);
      // Bob (he holds the room key) forges f1: a key of his own wrapped under the room key, other
      // bytes sealed under alice's signed header. A room file key's stream must carry the header
      // the key derives, so every read refuses it; alice's file still reads.
      const forgedRaw = generateRoomKey();
      const bobPublic = await importPublicKey(fromBase64Url(bob.keys.encryption.publicKey), 'encryption');
      const binding = { contextId: roomId, fileId: 'forge', recipientKeyId: bob.keys.encryption.keyId };
      const forgedHandle = await member.unwrapFileKey({ privateKey: bob.keys.encryption.handle, wrapped: await wrapFileKey({ fileKey: forgedRaw, recipientPublicKey: bobPublic, binding }), binding });
      const forgedWrapped = (await member.wrapRoomFileKey({ roomKey: bobRoom.handle, fileKey: forgedHandle.handle, file })).wrapped;
      const forged = await sealRecordRun(await contextFromHeader(forgedRaw, header), { firstRecord: 0, plaintext: new Uint8Array(plaintext.length).fill(0x41), final: true });
      const reader = await owner.unwrapRoomFileKey({ roomKey: reopened.handle, file, wrapped: forgedWrapped });
      const forgedRead = await owner.decryptStream({ fileKey: reader.handle, ciphertext: bytesToStream(forged), plaintextLength: metadata.size, expectedHeaderSha256: metadata.headerSha256, expectedContentSha256: metadata.contentSha256 });
      await expect(collectStream(forgedRead.plaintext)).rejects.toMatchObject({ code: 'stream-header-mismatch' });
      await expect(owner.decryptRange({ fileKey: reader.handle, header, plaintextLength: metadata.size, start: 0, end: 10, ciphertext: forged.subarray(49, 49 + 65_536 + 16), expectedHeaderSha256: metadata.headerSha256 })).rejects.toMatchObject({ code: 'stream-header-mismatch' });
      const ownerKey = (await owner.unwrapRoomFileKey({ roomKey: reopened.handle, file, wrapped })).handle;
      const genuineRead = await owner.decryptStream({ fileKey: ownerKey, ciphertext: bytesToStream(ciphertext), plaintextLength: metadata.size, expectedHeaderSha256: metadata.headerSha256, expectedContentSha256: metadata.contentSha256 });
      expect(await collectStream(genuineRead.plaintext)).toEqual(plaintext);
      // A room file is read whole only against its signed content hash: asking without it is refused.
      await expect(owner.decryptStream({ fileKey: ownerKey, ciphertext: bytesToStream(ciphertext), plaintextLength: metadata.size, expectedHeaderSha256: metadata.headerSha256 })).rejects.toMatchObject({ code: 'key-handle-kind' });
      // A room-key handle is not a file key and vice versa.
      await expect(member.decryptStream({ fileKey: bobRoom.handle, ciphertext: bytesToStream(ciphertext) })).rejects.toMatchObject({ code: 'key-handle-kind' });
      await expect(member.decryptRoomNames({ roomKey: bobFileKey.handle, roomId, items: [] })).rejects.toMatchObject({ code: 'key-handle-kind' });
    });

    it('a folder in one call each: openRoomFilesMetadata / verifyRoomFilesMetadata answer per file, a bad one names its code and the rest pass', async () => {
      const api: CryptoApi = make();
      const alice = await api.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
      const other = await api.setupSecuPass({ userId: 'mallory', passphrase: 'mallory passphrase' });
      const roomId = 'room-batch';
      const room = await api.generateRoomKey();
      const refs = [1, 2, 3, 4].map((n) => ({ roomId, fileId: `f${n}`, version: 1 }));
      const sealed = await Promise.all(
        refs.map(async (file) => (await api.sealRoomFileMetadata({
          roomKey: room.handle, signingKey: alice.keys.signing.handle,
          metadata: { ...file, name: `${file.fileId}.pdf`, size: 10, headerSha256: 'h', contentSha256: 'c', uploaderUserId: 'alice', uploaderEmail: 'alice@example.test', createdAt: '2026-11-25T00:00:00.000Z' },
        })).sealed),
      );
      // f2's metadata handed out as f3's: f3 does not open; the others do.
      const opened = (await api.openRoomFilesMetadata({ roomKey: room.handle, items: refs.map((file, i) => ({ file, sealed: sealed[i === 2 ? 1 : i]! })) })).results;
      expect(opened.map((r) => (r.ok ? r.value.metadata.fileId : r.code))).toEqual(['f1', 'f2', 'room-metadata-invalid', 'f4']);
      const ok = opened.flatMap((r) => (r.ok ? [r.value] : []));
      // f2 checked against another name than signed, f4 against another signer's key.
      const verified = (await api.verifyRoomFilesMetadata({
        items: ok.map((signed, i) => ({
          signed,
          signerPublicKey: i === 2 ? other.keys.signing.publicKey : alice.keys.signing.publicKey,
          expected: { roomId, fileId: signed.metadata.fileId, version: 1, name: i === 1 ? 'Other.pdf' : signed.metadata.name, size: 10 },
        })),
      })).results;
      expect(verified.map((r) => (r.ok ? r.value.name : r.code))).toEqual(['f1.pdf', 'room-metadata-mismatch', 'room-metadata-signature-invalid']);
      expect((await api.openRoomFilesMetadata({ roomKey: room.handle, items: [] })).results).toEqual([]);
    });
  });
}
