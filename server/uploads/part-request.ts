import type { IncomingMessage } from 'node:http';
import { CONTENT_SHA256_HEADER } from '@shared/contract/deliveries';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A part route's body limit: the part plus nothing else (parts are raw bytes, no envelope). */
export const PART_BODY_SLACK_BYTES = 1024;

/** What a part PUT brings: the declared hash and length (checked while streaming) and the body stream. */
export interface PartRequest {
  sha256: string | undefined;
  contentLength: number | undefined;
  body: IncomingMessage;
}

export function partRequestOf(request: FastifyRequest): PartRequest {
  const lengthHeader = request.headers['content-length'];
  const sha = request.headers[CONTENT_SHA256_HEADER];
  return {
    sha256: typeof sha === 'string' ? sha : undefined,
    contentLength: lengthHeader === undefined ? undefined : Number(lengthHeader),
    body: (request.body as IncomingMessage | undefined) ?? request.raw,
  };
}

/** Writes a part; when it is refused the rest of the body may still be arriving: close the connection instead of draining it. */
export async function closingOnRefusal<T>(reply: FastifyReply, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    void reply.header('connection', 'close');
    throw error;
  }
}
