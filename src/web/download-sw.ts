/**
 * Download service worker (DESIGN §4, web/lib/e2e-download.ts), registered at /webjars/download/.
 * It only pipes bytes: the crypto Worker fetches and decrypts, and writes the plaintext into a
 * MessagePort (shared/crypto/plaintext-port.ts) whose reading end the page hands to this worker;
 * this worker answers the hidden frame's navigation to /webjars/download/<id> with a streamed
 * `Content-Disposition: attachment` response read from that port, so the browser writes to disk
 * and no whole file is ever held in memory. No key ever reaches it.
 */
import { plaintextPortStream } from '@shared/crypto/plaintext-port';
import type { DownloadReadyMessage, DownloadRequestMessage } from '@web/lib/e2e-download';

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface Scope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  registration: { scope: string };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<DownloadRequestMessage>) => void): void;
}
const sw = self as unknown as Scope;

/** A registered download nobody fetched (the frame never navigated) is dropped after this. */
const UNCLAIMED_MS = 60_000;

const pending = new Map<string, { name: string; size: number; port: MessagePort }>();

sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('message', (event) => {
  const data = event.data;
  const reply = event.ports[0];
  if (data?.type !== 'download' || !reply || typeof data.id !== 'string' || !(data.port instanceof MessagePort)) return;
  pending.set(data.id, { name: String(data.name), size: Number(data.size), port: data.port });
  setTimeout(() => {
    const unclaimed = pending.get(data.id);
    if (!unclaimed) return;
    pending.delete(data.id);
    // Tells the crypto Worker to stop: nobody will read these bytes.
    void plaintextPortStream(unclaimed.port).cancel();
  }, UNCLAIMED_MS);
  reply.postMessage({ type: 'ready' } satisfies DownloadReadyMessage);
});

/** RFC 6266: an ASCII fallback and the exact UTF-8 name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(sw.registration.scope).pathname;
  if (!url.pathname.startsWith(scope)) return;
  const id = url.pathname.slice(scope.length);
  const download = pending.get(id);
  // Unknown ids go to the network (a 404 there): a reload of the frame cannot replay a download.
  if (!download) return;
  pending.delete(id);
  const headers = new Headers({
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': contentDisposition(download.name),
    'Content-Length': String(download.size),
    'X-Content-Type-Options': 'nosniff',
  });
  event.respondWith(new Response(plaintextPortStream(download.port), { headers }));
});
