// A file read by byte range instead of whole (issue 31 §3): the preview of a PDF hands pdf.js only
// the ranges it asks for (pdf-view.tsx), in plain rooms straight from the preview route, in Secure
// rooms decrypted record by record (e2e/e2e-media.ts) — so the first page does not wait for the file.

/** Bytes [start, end) of the file; rejects when they cannot be had (or, in a Secure room, do not authenticate). */
export type ByteRangeReader = (start: number, end: number) => Promise<Uint8Array>;

export interface RangedBytes {
  size: number;
  read: ByteRangeReader;
  /** Bytes pdf.js asks for at a time (its chunks are aligned to it); default pdf.js's 64 KiB. */
  chunkBytes?: number;
}

/**
 * GET `url` with `Range: bytes=start-(end-1)` and the session cookie; anything but a 206 of exactly
 * that length throws. `etag`: the answer must carry this ETag (a new version saved meanwhile would
 * otherwise mix its bytes into the old one's).
 */
export async function fetchRange(url: string, start: number, end: number, options: { signal?: AbortSignal; etag?: string | null } = {}): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'include', headers: { range: `bytes=${start}-${end - 1}` }, ...(options.signal ? { signal: options.signal } : {}) });
  if (response.status !== 206) {
    await response.body?.cancel();
    throw new Error(`range ${response.status}`);
  }
  if (options.etag && response.headers.get('etag') !== options.etag) {
    await response.body?.cancel();
    throw new Error('the file changed');
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength !== end - start) throw new Error('short range');
  return bytes;
}

/** The total size from a 206's `Content-Range: bytes a-b/size`, or null. */
export function sizeOfContentRange(header: string | null): number | null {
  const match = /^bytes \d+-\d+\/(\d+)$/.exec(header?.trim() ?? '');
  return match ? Number(match[1]) : null;
}

/** Bytes already in memory, read by range like the others. */
export function blobRanges(blob: Blob): RangedBytes {
  return { size: blob.size, read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()) };
}
