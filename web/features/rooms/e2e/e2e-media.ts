// Audio, video and PDF of a Secure room by range (issue 31 §3; shared/crypto/README.md section 7
// "Media by range"): the player's (or pdf.js's) byte ranges map to the stream's records, fetched
// from the preview route with a Range and decrypted in the crypto Worker one run of records at a
// time — never the whole file. Each record's AES-GCM tag authenticates it at its index (and the
// final flag), and the header is checked against the signed metadata; the whole-file content
// commitment cannot be checked from a range, so a ranged read never claims it (a full download or
// the whole-file preview checks it).
import { ROOM_PREVIEW_PATHS } from '@shared/contract/room-preview';
import { API_BASE } from '@shared/contract/constants';
import type { RoomFileMetadata } from '@shared/crypto/room';
import type { KeyHandle } from '@shared/crypto/service';
import { ciphertextRangeForPlaintext, decodeStreamHeader, DEFAULT_RECORD_SIZE, STREAM_HEADER_BYTES } from '@shared/crypto/stream-format';
import { cryptoApi } from '@web/lib/crypto';
import { mediaByRangeUsable, openMediaStream, warmMediaStream, type MediaReader } from '@web/lib/media-stream';
import { sniffPreview } from '../preview/preview-kind';
import type { Loaded } from '../preview/preview-source';
import { fetchRange } from '../preview/ranged-bytes';

/** Bytes the preview's type is sniffed from (preview-source.ts reads as many). */
const SNIFF_BYTES = 64;

/** A file's plaintext read by range; `heldUntil(start)`: where the bytes already in memory from `start` end (null: none held). */
export type E2eRangeReader = MediaReader & { heldUntil: (start: number) => number | null };

/**
 * Plaintext bytes [start, end) of the file: its header once, then the whole records covering the
 * range. The last run of records decrypted stays in memory (at most one media piece, 2 MiB): a read
 * inside it is answered from there, so the record the type was sniffed from is not fetched and
 * decrypted again for pdf.js's first chunk or the player's first piece. Answers are copies (their
 * buffers are transferred to pdf.js's worker or the service worker).
 */
export function e2eMediaReader(url: string, fileKey: KeyHandle, metadata: Pick<RoomFileMetadata, 'size' | 'headerSha256'>): E2eRangeReader {
  let head: Promise<{ header: Uint8Array; recordSize: number }> | undefined;
  let held: { start: number; bytes: Uint8Array } | undefined;
  const heldUntil = (start: number) => (held && start >= held.start && start < held.start + held.bytes.byteLength ? held.start + held.bytes.byteLength : null);
  const read = async (start: number, end: number) => {
    const until = heldUntil(start);
    if (held && until !== null && end <= until) return held.bytes.slice(start - held.start, end - held.start);
    head ??= fetchRange(url, 0, STREAM_HEADER_BYTES).then((header) => ({ header, recordSize: decodeStreamHeader(header).recordSize }));
    const { header, recordSize } = await head;
    const range = ciphertextRangeForPlaintext({ start, end, plaintextLength: metadata.size, recordSize });
    const [from, to] = [range.firstRecord * recordSize, Math.min(metadata.size, (range.lastRecord + 1) * recordSize)];
    const ciphertext = await fetchRange(url, range.ciphertextStart, range.ciphertextEnd);
    const { plaintext } = await cryptoApi.decryptRange({ fileKey, header, plaintextLength: metadata.size, start: from, end: to, ciphertext, expectedHeaderSha256: metadata.headerSha256 });
    held = { start: from, bytes: plaintext };
    return plaintext.slice(start - from, end - from);
  };
  return Object.assign(read, { heldUntil });
}

/**
 * The preview read by range: a PDF handed to pdf.js range by range (in chunks of the web client's
 * record size, so each chunk is one record decrypted once), audio or video played through the
 * download service worker where it runs; null when the file's first bytes are of another kind (the
 * caller decrypts it whole, as before).
 */
export async function e2eRangedPreview(options: { roomUuid: string; fileUuid: string; fileKey: KeyHandle; metadata: RoomFileMetadata; lang: string }): Promise<Loaded | null> {
  const { metadata } = options;
  if (metadata.size === 0) return null;
  const url = `${API_BASE}${ROOM_PREVIEW_PATHS.e2e(options.roomUuid, options.fileUuid)}`;
  const read = e2eMediaReader(url, options.fileKey, metadata);
  // The service worker's registration (the first media preview of a page) runs beside the sniff.
  warmMediaStream();
  const sniffed = sniffPreview(await read(0, Math.min(SNIFF_BYTES, metadata.size)), metadata.name, metadata.mimeType ?? '');
  if (sniffed?.kind === 'pdf') return { kind: 'pdf', bytes: { size: metadata.size, read, chunkBytes: DEFAULT_RECORD_SIZE }, etag: null };
  if (!sniffed || (sniffed.kind !== 'audio' && sniffed.kind !== 'video') || !mediaByRangeUsable()) return null;
  // The player's first piece is answered with what the sniff left in memory (a 206 may be shorter than
  // asked: the player asks again for the rest), so its first data comes without another fetch.
  const readHeld: MediaReader = (start, end) => read(start, Math.min(end, read.heldUntil(start) ?? end));
  const stream = await openMediaStream({ size: metadata.size, mimeType: sniffed.type, label: metadata.name, kind: sniffed.kind, lang: options.lang, read: readHeld });
  return { kind: sniffed.kind, src: stream.src, revoke: false, etag: null, framed: true, close: stream.close };
}
