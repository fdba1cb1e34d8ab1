import { describe, expect, it } from 'vitest';
import kat from '../../tests/fixtures/crypto/room-kat.json';
import { fromBase64Url, fromHex, toBase64Url, utf8Encode } from './bytes';
import { deriveRoomKeys, encryptRoomName, generateRoomKey, sealRoomBytes, roomAad } from './room';
import { sealRoomComment } from './room-comments';
import { openRoomFolderLabels, roomFolderLabelsSignerKeyId, sealRoomFolderLabels, type RoomFolderLabels, type RoomFolderLabelsRef } from './room-folder-labels';
import { subtle } from './subtle';
import { flipChar, signingPair } from './test-helpers/signing';

const ref: RoomFolderLabelsRef = { roomId: kat.roomId, folderId: '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f', signerUserId: '7c1e0a2b-3d4f-4a5b-8c6d-9e0f1a2b3c4d' };
const KEY_ID = 'kid-AAAAAAAAAAAAAAAAAAAA';
const labels: RoomFolderLabels = { classification: 'confidential', status: 'inProgress', counter: 2, signedAt: '2026-11-29T19:30:00.000Z', memberListVersion: 3 };
/**
 * Computed outside this code (Python `cryptography`: AES-256-GCM under the KAT room key's metadata
 * subkey, iv 30…3b, associated data "Kuvert room v1 folder labels|room|folder|signer|key id",
 * plaintext {"format":1,"classification":"confidential","status":"inProgress","counter":2,
 * "signedAt":"2026-11-29T19:30:00.000Z","memberListVersion":3} without spaces).
 */
const SEALED_KAT =
  'r1.MDEyMzQ1Njc4OTo7yTEsMgRE4JBjJ6W86x6nSf1r_4tNUyLk9z516JKPDHrYTTRvNLyeRQqomY_dX4zApSp2AUGpfv2Szf36wYMXT3vwHax_SMw2PqSRKqmG41bLAL7mqvS7pEaONDw6dmxeXLtNGqCLWn7Vbnj7YuY8xKIP2Lt4gxS3LXuyxIxEULR38dY5cTwbk8op-RfeU4QDYtxo6KXR0MaTzw';

const signer = (keyId = KEY_ID) => signingPair(keyId);

describe('Secure room folder labels (README section 7 "Folder labels")', () => {
  it('known answer: the sealed record byte for byte; the signature covers exactly the documented canonical JSON', async () => {
    const keys = await deriveRoomKeys(fromHex(kat.roomKey));
    const { signer: s, verifying } = await signer();
    const wire = await sealRoomFolderLabels(keys, ref, labels, s, fromHex('303132333435363738393a3b'));
    expect(wire.labels).toBe(SEALED_KAT);
    expect(roomFolderLabelsSignerKeyId(wire.signature)).toBe(KEY_ID);
    const documented = `{"folderId":"${ref.folderId}","format":1,"roomId":"${ref.roomId}","sealed":"${SEALED_KAT}","signerKeyId":"${KEY_ID}","signerUserId":"${ref.signerUserId}"}`;
    const raw = fromBase64Url(wire.signature.slice(KEY_ID.length + 1));
    expect(await subtle().verify({ name: 'ECDSA', hash: 'SHA-256' }, verifying, raw as Uint8Array<ArrayBuffer>, utf8Encode(documented) as Uint8Array<ArrayBuffer>)).toBe(true);
    expect(await openRoomFolderLabels(keys, ref, wire, verifying)).toEqual({ ...labels, format: 1, signerKeyId: KEY_ID });
  });

  it('`none` is written as an absent member; a record without labels opens with neither', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const { signer: s, verifying } = await signer();
    const wire = await sealRoomFolderLabels(keys, ref, { classification: 'none', status: 'done', counter: 1, signedAt: labels.signedAt }, s);
    const opened = await openRoomFolderLabels(keys, ref, wire, verifying);
    expect(opened).toEqual({ format: 1, status: 'done', counter: 1, signedAt: labels.signedAt, signerKeyId: KEY_ID });
    const cleared = await openRoomFolderLabels(keys, ref, await sealRoomFolderLabels(keys, ref, { classification: 'none', status: 'none', counter: 2, signedAt: labels.signedAt }, s), verifying);
    expect(cleared.classification).toBeUndefined();
    expect(cleared.status).toBeUndefined();
    await expect(sealRoomFolderLabels(keys, ref, { counter: 0, signedAt: labels.signedAt }, s)).rejects.toThrow(TypeError);
    await expect(sealRoomFolderLabels(keys, ref, labels, { ...s, keyId: 'a.b' })).rejects.toThrow(TypeError);
  });

  it('mutations: a changed record or signature, another folder, room, signer, key id or room key → refused', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const { signer: s, verifying } = await signer();
    const wire = await sealRoomFolderLabels(keys, ref, labels, s);
    const refused = (r: RoomFolderLabelsRef, w: { labels: string; signature: string }, code: string, key = verifying, k = keys) =>
      expect(openRoomFolderLabels(k, r, w, key)).rejects.toMatchObject({ code });
    const bad = 'room-metadata-signature-invalid';
    await refused(ref, { ...wire, labels: flipChar(wire.labels, 30) }, bad);
    await refused(ref, { ...wire, signature: flipChar(wire.signature, KEY_ID.length + 10) }, bad);
    await refused(ref, { ...wire, signature: wire.signature.replace(KEY_ID, 'kid-BBBBBBBBBBBBBBBBBBBB') }, bad);
    await refused(ref, { ...wire, signature: 'no-separator' }, 'room-metadata-invalid');
    // Moved to another folder or room, or shown under another signer.
    for (const other of [{ ...ref, folderId: 'other-folder' }, { ...ref, roomId: 'other-room' }, { ...ref, signerUserId: 'someone-else' }]) await refused(other, wire, bad);
    // Another member's key does not verify it.
    await refused(ref, wire, bad, (await signer()).verifying);
    // The record re-signed by another member under her own name does not open as hers (the seal binds signer and key id).
    const mallory = await signer('kid-MMMMMMMMMMMMMMMMMMMM');
    const asMallory = { ...ref, signerUserId: 'mallory' };
    const resigned = await sealRoomFolderLabels(keys, asMallory, labels, mallory.signer);
    await refused(asMallory, { labels: wire.labels, signature: resigned.signature }, bad, mallory.verifying);
    // A valid signature over something that is not a record of this folder: does not open.
    const sealedName = await encryptRoomName(keys, { roomId: ref.roomId, kind: 'folder', itemId: ref.folderId }, 'x');
    const signedName = await signOver(sealedName, s);
    await refused(ref, { labels: sealedName, signature: signedName }, 'room-metadata-invalid');
    // A comment of the same author on the folder is not a label record.
    const comment = await sealRoomComment(keys, { roomId: ref.roomId, kind: 'folder', itemId: ref.folderId, authorUserId: ref.signerUserId }, { text: 'x', writtenAt: labels.signedAt }, s);
    await refused(ref, { labels: comment.text, signature: await signOver(comment.text, s) }, 'room-metadata-invalid');
    // Another room key with a valid signature: the record does not open.
    await refused(ref, wire, 'room-metadata-invalid', verifying, await deriveRoomKeys(generateRoomKey()));
    expect((await openRoomFolderLabels(keys, ref, wire, verifying)).classification).toBe('confidential');
  });

  it('signed records with an unknown format, value, extra member or counter → room-metadata-invalid', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const { signer: s, verifying } = await signer();
    const bodies = [
      { format: 2, counter: 1, signedAt: labels.signedAt },
      { format: 1, classification: 'secret', counter: 1, signedAt: labels.signedAt },
      { format: 1, status: 'open', counter: 1, signedAt: labels.signedAt },
      { format: 1, counter: 0, signedAt: labels.signedAt },
      { format: 1, counter: 1 },
      { format: 1, counter: 1, signedAt: labels.signedAt, memberListVersion: 0 },
      { format: 1, counter: 1, signedAt: labels.signedAt, name: 'extra' },
    ];
    for (const body of bodies) {
      const sealed = await sealRoomBytes(keys.metadata, utf8Encode(JSON.stringify(body)), roomAad('folder labels', ref.roomId, ref.folderId, ref.signerUserId, KEY_ID));
      await expect(openRoomFolderLabels(keys, ref, { labels: sealed, signature: await signOver(sealed, s) }, verifying)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    }
  });
});

/** A genuine signature of the documented form over any sealed string (what a member holding the room key could make). */
async function signOver(sealed: string, s: { privateKey: CryptoKey; keyId: string }): Promise<string> {
  const bytes = utf8Encode(JSON.stringify({ folderId: ref.folderId, format: 1, roomId: ref.roomId, sealed, signerKeyId: s.keyId, signerUserId: ref.signerUserId }));
  const raw = new Uint8Array(await subtle().sign({ name: 'ECDSA', hash: 'SHA-256' }, s.privateKey, bytes as Uint8Array<ArrayBuffer>));
  return `${s.keyId}.${toBase64Url(raw)}`;
}
