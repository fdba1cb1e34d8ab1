import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A minimal clamd client (INSTREAM, PING) over TCP or a unix socket.
 *
 * Why not the `clamscan` package (v2.4.0, evaluated and removed): its `scanStream()` writes
 * every chunk to the socket ignoring the return value (no backpressure), so a large blob
 * read faster than clamd takes it piles up in our memory; its `passthrough()` has
 * backpressure but writes the end-of-stream marker straight to the socket from `flush()`
 * while chunks may still sit in its internal pipe (the tail of a file could go unscanned)
 * and never finishes an empty stream; and neither has a deadline: a clamd that accepts
 * but never answers leaves the promise pending for ever (its socket timeout only calls
 * `end()`). A scanner that fails closed needs all three, so we speak the protocol
 * (https://docs.clamav.net/manual/Usage/Scanning.html#clamd) ourselves: ~100 lines.
 */

export type ClamdAddress = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string };

/**
 * `tcp://host:port` or an absolute unix socket path; null for anything else. The config schema
 * (`KUVERT_CLAMD`) parses with it once at start: `config.clamdAddress` is the parsed address.
 */
export function parseClamdAddress(value: string): ClamdAddress | null {
  const tcp = /^tcp:\/\/([^/:]+):(\d{1,5})\/?$/.exec(value);
  if (tcp) return { kind: 'tcp', host: tcp[1]!, port: Number(tcp[2]) };
  if (!value.includes('://') && value.startsWith('/')) return { kind: 'unix', path: value };
  return null;
}

export type ScanVerdict = { infected: false } | { infected: true; viruses: string[] };

/** clamd could not give a verdict (down, timed out, refused the stream, said ERROR). Never "clean". */
export class ScannerError extends Error {
  override readonly name = 'ScannerError';
}

/** INSTREAM chunks: clamd reads a 4-byte length then the bytes; 64 KiB keeps the framing overhead negligible. */
const MAX_CHUNK = 64 * 1024;

function open(address: ClamdAddress): Socket {
  return address.kind === 'tcp' ? connect({ host: address.host, port: address.port }) : connect({ path: address.path });
}

/**
 * Sends `command` (null-terminated, "z" form), then whatever `write` writes, and resolves
 * with clamd's reply once clamd closes the connection. Everything is bounded by `timeoutMs`
 * and `signal`: the socket is destroyed, never left hanging.
 */
function exchange(address: ClamdAddress, command: string, timeoutMs: number, signal: AbortSignal | undefined, write?: (socket: Socket) => Promise<void>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = open(address);
    const replies: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null, reply?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error) reject(error);
      else resolve(reply!);
    };
    const deadline = setTimeout(() => finish(new ScannerError(`clamd did not answer within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => finish(new ScannerError('scan aborted'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (err) => finish(new ScannerError(`clamd connection failed: ${err.message}`)));
    socket.on('data', (chunk: Buffer) => replies.push(chunk));
    socket.on('end', () => finish(null, Buffer.concat(replies).toString('utf8').replace(/\0+$/, '').trim()));
    socket.once('connect', () => {
      socket.write(`z${command}\0`);
      if (!write) return;
      write(socket).catch((err: unknown) => {
        // clamd may close early (size limit, error): its reply (if any) explains more than our EPIPE.
        if (replies.length === 0) finish(new ScannerError(`streaming to clamd failed: ${err instanceof Error ? err.message : String(err)}`));
      });
    });
  });
}

/** Writes with backpressure: waits for 'drain' when the socket's buffer is full. */
function writeChunk(socket: Socket, chunk: Uint8Array): Promise<void> {
  if (socket.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      socket.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      socket.off('drain', onDrain);
      reject(new Error('socket closed'));
    };
    socket.once('drain', onDrain);
    socket.once('close', onClose);
  });
}

export interface ClamdClient {
  /** Streams `body` to clamd (INSTREAM) and returns the verdict; ScannerError when there is none. */
  scan(body: Readable, options?: { signal?: AbortSignal }): Promise<ScanVerdict>;
  /** true when clamd answers PONG within the timeout. */
  ping(): Promise<boolean>;
}

export function createClamdClient(address: ClamdAddress, timeoutMs: number): ClamdClient {
  return {
    async scan(body, options = {}) {
      const reply = await exchange(address, 'INSTREAM', timeoutMs, options.signal, async (socket) => {
        for await (const data of body) {
          const bytes = data as Uint8Array;
          for (let offset = 0; offset < bytes.length; offset += MAX_CHUNK) {
            const piece = bytes.subarray(offset, Math.min(bytes.length, offset + MAX_CHUNK));
            const length = Buffer.alloc(4);
            length.writeUInt32BE(piece.length, 0);
            await writeChunk(socket, length);
            await writeChunk(socket, piece);
          }
        }
        await writeChunk(socket, Buffer.alloc(4)); // zero length: end of stream
      }).finally(() => body.destroy());
      // "stream: OK", "stream: Eicar-Signature FOUND", "INSTREAM size limit exceeded. ERROR", …
      if (/^stream: OK$/.test(reply)) return { infected: false };
      const found = [...reply.matchAll(/^stream: (.+) FOUND$/gm)].map((m) => m[1]!);
      if (found.length > 0) return { infected: true, viruses: found };
      throw new ScannerError(`clamd gave no verdict: ${reply.slice(0, 200) || '(empty reply)'}`);
    },
    async ping() {
      try {
        return (await exchange(address, 'PING', timeoutMs, undefined)) === 'PONG';
      } catch {
        return false;
      }
    },
  };
}
