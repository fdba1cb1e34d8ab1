// A bare HTTP server answering a ciphertext the way the network delivers it: in pieces that do
// not line up with records. For the download pipelines' tests (the crypto Worker's
// decryptDownload, the download service worker decrypting itself).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CiphertextServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * Serves `body()` (read per request) with its Content-Length when the cookie is `session=ok`, else
 * 403. The path `/cut` sends the first half and then drops the connection (a network failure).
 */
export async function startCiphertextServer(body: () => Uint8Array): Promise<CiphertextServer> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests++;
    if (request.headers.cookie !== 'session=ok') return void response.writeHead(403).end();
    const bytes = body();
    response.writeHead(200, { 'content-length': String(bytes.length) });
    const end = request.url === '/cut' ? bytes.length >> 1 : bytes.length;
    let offset = 0;
    const next = () => {
      if (offset >= end) return void (end < bytes.length ? response.destroy() : response.end());
      const piece = bytes.subarray(offset, Math.min(end, offset + 70_001));
      offset += piece.length;
      if (response.write(piece)) setImmediate(next);
      else response.once('drain', next);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
