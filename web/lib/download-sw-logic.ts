/**
 * The download service worker's logic (DESIGN §4, web/README.md "Downloads"); the entry
 * src/web/download-sw.ts only hands it the worker's global scope. It answers the hidden frame's
 * navigation to /webjars/download/<id> with a streamed `Content-Disposition: attachment` response,
 * so the browser writes to disk and no whole file is ever held in memory. Two kinds of download:
 * - `decrypt` (level-3/4 and E2E room files): the worker fetches the ciphertext and decrypts it
 *   itself with shared/crypto's stream decoder (download-decrypt.ts), using the one file key the
 *   page got from the crypto Worker for this download (a non-extractable CryptoKey); it reports
 *   progress and the outcome on the message's reply port and takes `cancel` there.
 * - `download`: bytes someone else produces (a plain room file, a Secure room's ZIP) arrive on a
 *   MessagePort (shared/crypto/plaintext-port.ts) and are piped through.
 * Framework- and window-free, so the unit test drives it in Node with real MessagePorts.
 */
import { contentDisposition } from '@shared/contract/content-disposition';
import { decryptedDownloadStream, serviceWorkerDecoderOptions, type ServiceWorkerDecodeArgs } from '@shared/crypto/download-decrypt';
import { DownloadCancelledError, DownloadFailedError } from '@shared/crypto/errors';
import { plaintextPortStream } from '@shared/crypto/plaintext-port';

/** The download worker's answer on the message's reply port: it knows the id now. */
export interface DownloadReadyMessage {
  type: 'ready';
}

/** What the page posts to the download worker; `port` is the reading end of the plaintext port. */
export interface DownloadRequestMessage {
  type: 'download';
  id: string;
  name: string;
  /** Bytes, or -1 when unknown (a streamed ZIP). */
  size: number;
  port: MessagePort;
}

/**
 * What the page posts for a download this worker decrypts itself (`key`: one file's key from
 * CryptoApi.serviceWorkerDownloadKey); the reply port carries DecryptReplyMessage and takes `cancel`.
 */
export interface DecryptRequestMessage extends ServiceWorkerDecodeArgs {
  type: 'decrypt';
  id: string;
  name: string;
  /** The ciphertext's URL (same origin; the worker's fetch sends the cookies). */
  url: string;
  headers?: Record<string, string>;
}

/** Failure kinds as the page maps them (SPEC §8): the ciphertext did not arrive, or did not decrypt. */
export type DecryptFailureKind = 'download' | 'fileDecryption' | 'cancelled';

/** Worker → page on a decrypt download's reply port, after `ready`. */
export type DecryptReplyMessage =
  | { type: 'progress'; bytes: number; totalBytes: number }
  | { type: 'done' }
  | { type: 'failed'; kind: DecryptFailureKind; message: string };

/** Progress goes out at most this often (the page redraws a bar, not once per network chunk). */
export const DECRYPT_PROGRESS_MS = 250;

export function decryptFailureKind(error: unknown): DecryptFailureKind {
  if (error instanceof DownloadCancelledError) return 'cancelled';
  if (error instanceof DownloadFailedError) return 'download';
  return 'fileDecryption';
}

/** A registered download nobody fetched (the frame never navigated) is dropped after this. */
export const UNCLAIMED_DOWNLOAD_MS = 60_000;

export interface DownloadRegistryOptions {
  /** Schedules the unclaimed-download drop (the worker's setTimeout; tests call it themselves). */
  schedule?: (drop: () => void, ms: number) => void;
}

/**
 * The downloads a page announced and not yet fetched, by id. `announce` takes the page's
 * message (anything else is ignored) and answers `ready` on the reply port; `respond` answers a
 * fetch below the scope with the streamed file, once: unknown or already fetched ids get
 * `undefined` (the worker lets them go to the network, a 404), so reloading the frame cannot
 * replay a download.
 */
export function createDownloadRegistry({ schedule = (drop, ms) => void setTimeout(drop, ms) }: DownloadRegistryOptions = {}) {
  type Pending = { name: string; size: number } & ({ port: MessagePort } | { decrypt: DecryptRequestMessage; reply: MessagePort });
  const pending = new Map<string, Pending>();
  const register = (id: string, entry: Pending, drop: (entry: Pending) => void) => {
    pending.set(id, entry);
    schedule(() => {
      if (pending.get(id) !== entry) return;
      pending.delete(id);
      drop(entry);
    }, UNCLAIMED_DOWNLOAD_MS);
  };
  return {
    announce(data: unknown, reply: MessagePort | undefined): boolean {
      const message = data as Partial<DownloadRequestMessage | DecryptRequestMessage> | null | undefined;
      if (!reply || typeof message?.id !== 'string') return false;
      if (message.type === 'decrypt') {
        const decrypt = message as DecryptRequestMessage;
        if (typeof decrypt.url !== 'string' || typeof decrypt.key !== 'object' || decrypt.key === null) return false;
        register(decrypt.id, { name: String(decrypt.name), size: Number(decrypt.plaintextLength), decrypt, reply }, () => {
          reply.postMessage({ type: 'failed', kind: 'download', message: 'Nobody fetched the download' } satisfies DecryptReplyMessage);
        });
      } else if (message.type === 'download' && message.port instanceof MessagePort) {
        const { port } = message;
        // Tells the crypto Worker to stop: nobody will read these bytes.
        register(message.id, { name: String(message.name), size: Number(message.size), port }, () => void plaintextPortStream(port).cancel());
      } else return false;
      reply.postMessage({ type: 'ready' } satisfies DownloadReadyMessage);
      return true;
    },
    respond(url: string, scope: string): Response | undefined {
      const path = new URL(url).pathname;
      const scopePath = new URL(scope).pathname;
      if (!path.startsWith(scopePath)) return undefined;
      const id = path.slice(scopePath.length);
      const download = pending.get(id);
      if (!download) return undefined;
      pending.delete(id);
      const headers = new Headers({
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': contentDisposition(download.name),
        // A size below 0 is unknown (a room's streamed ZIP): no length, the browser shows bytes so far.
        ...(Number.isFinite(download.size) && download.size >= 0 ? { 'Content-Length': String(download.size) } : {}),
        'X-Content-Type-Options': 'nosniff',
      });
      return new Response('port' in download ? plaintextPortStream(download.port) : decryptingBody(download.decrypt, download.reply), { headers });
    },
    /** Ids announced and not yet fetched or dropped (for tests and diagnostics). */
    pendingIds: (): string[] => [...pending.keys()],
  };
}

/** Decrypts one download into the response body, reporting on `reply` (progress, done or failed) and taking `cancel` there. */
function decryptingBody(request: DecryptRequestMessage, reply: MessagePort): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  reply.onmessage = (event: MessageEvent<unknown>) => {
    if ((event.data as { type?: unknown } | null)?.type === 'cancel') abort.abort();
  };
  let bytes = 0;
  let totalBytes = 0;
  let reportedAt = 0;
  const report = (force: boolean) => {
    if (!force && Date.now() - reportedAt < DECRYPT_PROGRESS_MS) return;
    reportedAt = Date.now();
    reply.postMessage({ type: 'progress', bytes, totalBytes } satisfies DecryptReplyMessage);
  };
  const { stream, done } = decryptedDownloadStream({
    decoder: serviceWorkerDecoderOptions(request),
    url: request.url,
    ...(request.headers ? { headers: request.headers } : {}),
    signal: abort.signal,
    onResponse: (total) => {
      totalBytes = total;
      report(true);
    },
    onBytes: (count) => {
      bytes += count;
      report(false);
    },
  });
  // The page closes its end once it has read the outcome: closing here could drop the message.
  const settle = (message: DecryptReplyMessage) => {
    reply.postMessage(message);
    reply.onmessage = null;
  };
  done.then(
    () => {
      report(true);
      settle({ type: 'done' });
    },
    (error: unknown) => settle({ type: 'failed', kind: decryptFailureKind(error), message: error instanceof Error ? error.message : 'The download failed' }),
  );
  return stream;
}

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
/** The part of a ServiceWorkerGlobalScope the download worker uses. */
export interface DownloadWorkerScope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  registration: { scope: string };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** Wires the registry to the worker's events (active at once: skipWaiting + claim). */
export function serveDownloadWorker(sw: DownloadWorkerScope, registry = createDownloadRegistry()): void {
  sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
  sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
  sw.addEventListener('message', (event) => void registry.announce(event.data, event.ports[0]));
  sw.addEventListener('fetch', (event) => {
    const response = registry.respond(event.request.url, sw.registration.scope);
    if (response) event.respondWith(response);
  });
}
