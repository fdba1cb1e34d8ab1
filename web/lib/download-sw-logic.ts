/**
 * The download service worker's logic (DESIGN §4, web/README.md "Downloads"); the entry
 * src/web/download-sw.ts only hands it the worker's global scope. It only pipes bytes: the crypto
 * Worker fetches and decrypts, and writes the plaintext into a MessagePort
 * (shared/crypto/plaintext-port.ts) whose reading end the page hands to this worker; the worker
 * answers the hidden frame's navigation to /webjars/download/<id> with a streamed
 * `Content-Disposition: attachment` response read from that port, so the browser writes to disk
 * and no whole file is ever held in memory. No key ever reaches it.
 * Framework- and window-free, so the unit test drives it in Node with real MessagePorts.
 */
import { contentDisposition } from '@shared/contract/content-disposition';
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
  const pending = new Map<string, { name: string; size: number; port: MessagePort }>();
  return {
    announce(data: unknown, reply: MessagePort | undefined): boolean {
      const message = data as Partial<DownloadRequestMessage> | null | undefined;
      if (message?.type !== 'download' || !reply || typeof message.id !== 'string' || !(message.port instanceof MessagePort)) return false;
      const { id, port } = message;
      pending.set(id, { name: String(message.name), size: Number(message.size), port });
      schedule(() => {
        const unclaimed = pending.get(id);
        if (unclaimed?.port !== port) return;
        pending.delete(id);
        // Tells the crypto Worker to stop: nobody will read these bytes.
        void plaintextPortStream(unclaimed.port).cancel();
      }, UNCLAIMED_DOWNLOAD_MS);
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
      return new Response(plaintextPortStream(download.port), { headers });
    },
    /** Ids announced and not yet fetched or dropped (for tests and diagnostics). */
    pendingIds: (): string[] => [...pending.keys()],
  };
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
