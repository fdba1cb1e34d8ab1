import { describe, expect, it } from 'vitest';
import kat from '../../tests/fixtures/crypto/room-kat.json';
import { fromBase64Url, fromHex, utf8Encode } from './bytes';
import { deriveRoomKeys, encryptRoomName, generateRoomKey } from './room';
import { openRoomComment, roomCommentSignerKeyId, sealRoomComment, type RoomCommentRef } from './room-comments';
import { subtle } from './subtle';
import { flipChar, signingPair } from './test-helpers/signing';

const ref: RoomCommentRef = { roomId: kat.roomId, kind: 'file', itemId: kat.file.fileId, authorUserId: '7c1e0a2b-3d4f-4a5b-8c6d-9e0f1a2b3c4d' };
const KEY_ID = 'kid-AAAAAAAAAAAAAAAAAAAA';
const comment = { text: 'Bitte den Preis prüfen.', writtenAt: '2026-11-29T05:00:00.000Z' };
/**
 * Computed outside this code (Python `cryptography`: AES-256-GCM under the KAT room key's metadata
 * subkey, iv 30…3b, associated data "Kuvert room v1 comment|room|file|item|author|key id", plaintext
 * {"format":1,"text":…,"writtenAt":…}).
 */
const SEALED_KAT =
  'r1.MDEyMzQ1Njc4OTo7yTEsMgRE4JBjJ6W86wmuUPo6rM9mWTfk-3F_r8aNP2fTQi4rIaApkA2h1Y3dANrWozZxVx7lVufghbCvg9RSEWjtEv0paZJ3YeaDKqua7xWSV4qhs4rfj92h_WhbqCHhcqBUlmM';

const author = (keyId = KEY_ID) => signingPair(keyId);

describe('Secure room comments (README section 7 "Comments")', () => {
  it('known answer: the sealed text byte for byte; the signature covers exactly the documented canonical JSON', async () => {
    const keys = await deriveRoomKeys(fromHex(kat.roomKey));
    const { signer, verifying } = await author();
    const wire = await sealRoomComment(keys, ref, comment, signer, fromHex('303132333435363738393a3b'));
    expect(wire.text).toBe(SEALED_KAT);
    expect(roomCommentSignerKeyId(wire.signature)).toBe(KEY_ID);
    const documented = `{"authorUserId":"${ref.authorUserId}","format":1,"itemId":"${ref.itemId}","kind":"file","roomId":"${ref.roomId}","sealed":"${SEALED_KAT}","signerKeyId":"${KEY_ID}"}`;
    const raw = fromBase64Url(wire.signature.slice(KEY_ID.length + 1));
    expect(await subtle().verify({ name: 'ECDSA', hash: 'SHA-256' }, verifying, raw as Uint8Array<ArrayBuffer>, utf8Encode(documented) as Uint8Array<ArrayBuffer>)).toBe(true);
    expect(await openRoomComment(keys, ref, wire, verifying)).toEqual({ ...comment, signerKeyId: KEY_ID });
  });

  it('mutations: changed text or signature, another item, room, kind, author, key id or room key, another signer → room-comment-invalid', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const { signer, verifying } = await author();
    const wire = await sealRoomComment(keys, ref, comment, signer);
    const refused = (r: RoomCommentRef, w: { text: string; signature: string }, key = verifying, k = keys) => expect(openRoomComment(k, r, w, key)).rejects.toMatchObject({ code: 'room-comment-invalid' });
    await refused(ref, { ...wire, text: flipChar(wire.text, 30) });
    await refused(ref, { ...wire, signature: flipChar(wire.signature, KEY_ID.length + 10) });
    await refused(ref, { ...wire, signature: wire.signature.replace(KEY_ID, 'kid-BBBBBBBBBBBBBBBBBBBB') });
    await refused(ref, { ...wire, signature: 'no-separator' });
    for (const other of [{ ...ref, itemId: 'other-file' }, { ...ref, roomId: 'other-room' }, { ...ref, kind: 'folder' as const }, { ...ref, authorUserId: 'someone-else' }]) await refused(other, wire);
    await refused(ref, wire, (await author()).verifying);
    // The ciphertext re-signed by another member under her own name does not open as hers (the seal binds the author).
    const mallory = await author('kid-MMMMMMMMMMMMMMMMMMMM');
    const resigned = await sealRoomComment(keys, { ...ref, authorUserId: 'mallory' }, comment, mallory.signer);
    await refused({ ...ref, authorUserId: 'mallory' }, { text: wire.text, signature: resigned.signature }, mallory.verifying);
    // A sealed name is not a comment, even under the right key.
    await refused(ref, { text: await encryptRoomName(keys, { roomId: ref.roomId, kind: 'file', itemId: ref.itemId }, 'x'), signature: wire.signature });
    // Another room key with a valid signature: the text does not open.
    await refused(ref, wire, verifying, await deriveRoomKeys(generateRoomKey()));
    expect((await openRoomComment(keys, ref, wire, verifying)).text).toBe(comment.text);
  });
});
