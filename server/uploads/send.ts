// The download response of a stored file: one `bytes=` Range (206/416), safe headers, the pooled
// body where the blob store can fill buffers, a stream otherwise.
import { contentDisposition } from '@shared/contract/content-disposition';
import { isValidMimeType } from '@shared/contract/deliveries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../core/http-error';
import type { BlobStore } from '../storage/blob-store';
import { sendPooledBody } from '../storage/pooled-body';
import { openPartsStream, partsRangeReader, partsStream } from './bytes';
import { servedType } from './content-type';
import type { PartLayout } from './parts';
import { parseRange } from './range';

export interface StoredFile {
  name: string;
  mimeType: string;
  layout: PartLayout;
  keyOf: (index: number) => string;
}

/**
 * Answers a GET/HEAD for the file's bytes. `onComplete` runs once the last byte of a GET has gone
 * out (a download counts then, a Range that stops short does not).
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  file: StoredFile,
  onComplete?: () => Promise<void>,
  /** `inline`: shown by the browser (a data-room preview) instead of saved; `contentType` overrides the stored type. */
  options: { inline?: boolean; contentType?: string } = {},
): Promise<unknown> {
  const size = file.layout.size;
  const range = parseRange(request.headers.range, size);
  const headers = () =>
    reply
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'")
      .header('content-disposition', contentDisposition(file.name, options.inline ? 'inline' : 'attachment'));
  if (range.kind === 'unsatisfiable') {
    void headers();
    throw new HttpError(416, 'ValidationException', 'The requested range cannot be satisfied', { size }, { 'content-range': `bytes */${size}` });
  }
  const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
  // The first part is opened before any header is set: a store outage answers 503 (the error
  // handler) instead of a 200 that breaks off after its headers. A HEAD reads nothing.
  const reading = request.method !== 'HEAD';
  const reader = partsRangeReader(blobs, file.layout, file.keyOf, start, end);
  if (reader && reading) {
    try {
      await reader.open();
    } catch (error) {
      await reader.close().catch(() => undefined);
      throw error;
    }
  }
  const stream = !reader && reading ? await openPartsStream(blobs, file.layout, file.keyOf, start, end) : null;
  void headers();
  if (onComplete && request.method === 'GET' && end === size - 1) {
    reply.raw.once('finish', () => {
      onComplete().catch((err: unknown) => request.log.error({ err }, 'recording a download failed'));
    });
  }
  // A type stored before the MIME check existed may be malformed (a CR/LF): never put it in a header.
  // A declared active type (HTML, SVG, XML, script) is never served as such (content-type.ts).
  void reply.type(options.contentType ?? (isValidMimeType(file.mimeType) ? servedType(file.mimeType) : 'application/octet-stream')).header('content-length', String(end - start + 1));
  if (range.kind === 'partial') void reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  if (reader) return sendPooledBody(reply, reader, end - start + 1);
  return reply.send((stream ?? partsStream(blobs, file.layout, file.keyOf, start, end)) as never);
}
