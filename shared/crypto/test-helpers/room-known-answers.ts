// Test support (NOT used by production code): the data-room vectors of
// tests/fixtures/crypto/room-kat.json recomputed and opened, so Node and Chromium check the same bytes.
import { fromBase64Url, fromHex, toBase64Url, toHex, utf8Encode } from '../bytes';
import { unwrapFileKey, type WrappedFileKey } from '../file-key';
import { importPublicKey, importUserKeyPair } from '../keys';
import { ROOM_KEY_FILE_ID, decryptRoomName, deriveRoomKeys, encryptRoomName, openRoomFileMetadata, unwrapRoomFileKey, verifyRoomFileMetadata, wrapRoomFileKey, type RoomItemKind } from '../room';
import { createDecryptStream } from '../stream-decoder';
import { bytesToStream, collectStream } from '../stream-encoder';
import { hkdfSha256, sha256 } from '../subtle';
import { katPlaintext } from './known-answers';
import type { VectorCheck } from './published-vectors';

export interface RoomKnownAnswers {
  roomId: string;
  roomKey: string;
  subkeys: Record<'names' | 'fileKeys' | 'metadata', string>;
  roomKeyCopy: { memberPkcs8: string; memberSpki: string; memberKeyId: string; wrapped: WrappedFileKey };
  names: { kind: string; itemId: string; name: string; iv: string; sealed: string }[];
  file: { roomId: string; fileId: string; version: number; fileKey: string; fileKeyIv: string; wrappedFileKey: string; recordSize: number; plaintextLength: number; ciphertext: string; signerSpki: string; metadata: unknown; sealedMetadata: string };
}

const check = (name: string, expected: string, actual: string): VectorCheck => ({ name, ok: expected === actual, expected, actual });

export async function checkRoomKnownAnswers(kat: RoomKnownAnswers): Promise<VectorCheck[]> {
  const results: VectorCheck[] = [];
  const member = await importUserKeyPair({ usage: 'encryption', pkcs8: fromHex(kat.roomKeyCopy.memberPkcs8), publicKeySpki: fromHex(kat.roomKeyCopy.memberSpki) });
  const roomKey = await unwrapFileKey({ wrapped: kat.roomKeyCopy.wrapped, recipientKeyPair: member, binding: { contextId: kat.roomId, fileId: ROOM_KEY_FILE_ID, recipientKeyId: kat.roomKeyCopy.memberKeyId } });
  results.push(check('room key copy (HPKE)', kat.roomKey, toHex(roomKey)));
  for (const [name, label] of [['names', 'Kuvert room v1 names'], ['fileKeys', 'Kuvert room v1 file keys'], ['metadata', 'Kuvert room v1 metadata']] as const) {
    results.push(check(`subkey ${name}`, kat.subkeys[name], toHex(await hkdfSha256({ ikm: roomKey, salt: new Uint8Array(0), info: utf8Encode(label), length: 32 }))));
  }
  const keys = await deriveRoomKeys(roomKey);
  for (const item of kat.names) {
    const ref = { roomId: kat.roomId, kind: item.kind as RoomItemKind, itemId: item.itemId };
    results.push(check(`${item.kind} name sealed`, item.sealed, await encryptRoomName(keys, ref, item.name, fromHex(item.iv))));
    results.push(check(`${item.kind} name opened`, item.name, await decryptRoomName(keys, ref, item.sealed)));
  }
  const f = kat.file;
  const ref = { roomId: f.roomId, fileId: f.fileId, version: f.version };
  results.push(check('file key sealed', f.wrappedFileKey, await wrapRoomFileKey(keys, ref, fromHex(f.fileKey), fromHex(f.fileKeyIv))));
  const fileKey = await unwrapRoomFileKey(keys, ref, f.wrappedFileKey);
  results.push(check('file key opened', f.fileKey, toHex(fileKey)));
  const signed = await openRoomFileMetadata(keys, ref, f.sealedMetadata);
  const metadata = await verifyRoomFileMetadata(signed, await importPublicKey(fromHex(f.signerSpki), 'signing'), { ...ref, size: f.plaintextLength });
  results.push(check('metadata verified', JSON.stringify(f.metadata), JSON.stringify(metadata)));
  const plaintext = await collectStream(
    bytesToStream(fromHex(f.ciphertext)).pipeThrough(createDecryptStream({ fileKey, plaintextLength: metadata.size, expectedHeaderHash: fromBase64Url(metadata.headerSha256) })),
  );
  results.push(check('file content', toHex(katPlaintext(f.plaintextLength)), toHex(plaintext)));
  // The frozen vector is a format-1 file (whole-plaintext SHA-256): older files keep verifying by that rule.
  results.push(check('content hash signed', metadata.contentSha256 ?? '(none)', toBase64Url(await sha256(plaintext))));
  return results;
}
