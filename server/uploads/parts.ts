// The resumable part mechanism shared by deliveries and data rooms: the part layout, checking and
// storing one part, the completeness check at commit. Rows stay with their owners (each keeps its
// own files and parts tables); this file only knows blobs and layouts.
import type { Readable } from 'node:stream';
import { partBounds } from '@shared/contract/deliveries';
import { badRequest } from '../core/http-error';
import { BlobIntegrityError, type BlobStore } from '../storage/blob-store';

/** Where a file's bytes are cut into parts (part 0 of an E2E delivery file also holds `leadingBytes`). */
export interface PartLayout {
  size: number;
  partSize: number;
  partCount: number;
  leadingBytes: number;
}

/** Bytes `start..end` (end exclusive) of part `index`. */
export const boundsOfPart = (layout: PartLayout, index: number) =>
  partBounds({ size: layout.size, partSize: layout.partSize, leadingBytes: layout.leadingBytes }, index);

/** Size of part `index`: every part but the last is full. */
export function partSizeOf(layout: PartLayout, index: number): number {
  const { start, end } = boundsOfPart(layout, index);
  return end - start;
}

/** The index and the `x-content-sha256` header of a part upload checked: its hash (lower-case hex) and exact size. */
export function checkPartRequest(layout: PartLayout, index: number, sha256Header: string | undefined): { sha256: string; size: number } {
  if (index >= layout.partCount) {
    throw badRequest('No such part', { field: 'index', reason: 'partIndexOutOfRange', partCount: layout.partCount });
  }
  const sha256 = sha256Header?.trim().toLowerCase();
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256)) {
    throw badRequest('Header x-content-sha256 with the part’s SHA-256 (hex) is required', { field: 'x-content-sha256', reason: 'missingSha256' });
  }
  return { sha256, size: partSizeOf(layout, index) };
}

/**
 * Streams a part body into the blob store under `key`, checked against its hash and size while it
 * arrives (the store writes a temp blob and renames it into place only when both match).
 */
export async function writePart(
  blobs: BlobStore,
  key: string,
  part: { index: number; sha256: string; size: number; contentLength: number | undefined; body: Readable },
): Promise<void> {
  const { index, sha256, size } = part;
  if (part.contentLength !== undefined && part.contentLength !== size) {
    throw badRequest(`Part ${index} must be exactly ${size} bytes`, { reason: 'partSizeMismatch', expectedSize: size, actualSize: part.contentLength });
  }
  try {
    await blobs.put(key, part.body, { expectedSha256: sha256, expectedSize: size });
  } catch (error) {
    if (error instanceof BlobIntegrityError) {
      if (error.reason === 'sha256') {
        throw badRequest('The part does not match its SHA-256', { reason: 'sha256Mismatch', expected: sha256, actual: error.actual.sha256 ?? null });
      }
      throw badRequest(`Part ${index} must be exactly ${size} bytes`, { reason: 'partSizeMismatch', expectedSize: size });
    }
    throw error;
  }
}

/**
 * Before a commit: every part recorded with its exact size, the sizes adding up, every blob there;
 * else 400 `uploadIncomplete` with the missing indexes.
 */
export async function checkComplete(
  blobs: BlobStore,
  layout: PartLayout,
  recorded: ReadonlyArray<{ part_index: number; size: number }>,
  keyOf: (index: number) => string,
): Promise<void> {
  const have = new Map(recorded.map((p) => [p.part_index, p.size]));
  const missing: number[] = [];
  for (let i = 0; i < layout.partCount; i++) {
    if (have.get(i) !== partSizeOf(layout, i)) missing.push(i);
  }
  const total = recorded.reduce((sum, p) => sum + p.size, 0);
  if (missing.length > 0 || total !== layout.size) {
    throw badRequest('The upload is incomplete', { reason: 'uploadIncomplete', missing: missing.slice(0, 100), receivedSize: total, size: layout.size });
  }
  for (let i = 0; i < layout.partCount; i++) {
    if (!(await blobs.exists(keyOf(i)))) throw badRequest('The upload is incomplete', { reason: 'uploadIncomplete', missing: [i] });
  }
}
