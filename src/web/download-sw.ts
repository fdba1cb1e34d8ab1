/**
 * Download service worker (DESIGN §4, web/lib/e2e-download.ts), registered at /webjars/download/.
 * It only pipes bytes: the page decrypts in the crypto Worker and hands the plaintext over a
 * MessageChannel; this worker answers the hidden frame's navigation to /webjars/download/<id>
 * with a streamed `Content-Disposition: attachment` response, so the browser writes to disk and
 * no whole file is ever held in memory. No key ever reaches it.
 */
import type { DownloadPortMessage } from '@web/lib/e2e-download';

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
  addEventListener(type: 'message', listener: (event: MessageEvent<{ type: 'download'; id: string; name: string; size: number; stream?: ReadableStream<Uint8Array> }>) => void): void;
}
const sw = self as unknown as Scope;

/** Buffered ahead of the browser's writer: enough to hide the page round trips, little memory. */
const HIGH_WATER_MARK = 8 * 1024 * 1024;
/** A registered download nobody fetched (the frame never navigated) is dropped after this. */
const UNCLAIMED_MS = 60_000;

/** The page posts the plaintext stream itself where streams are transferable, else chunks on the port. */
const pending = new Map<string, { name: string; size: number; port: MessagePort; stream?: ReadableStream<Uint8Array> }>();

sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('message', (event) => {
  const data = event.data;
  const port = event.ports[0];
  if (data?.type !== 'download' || !port || typeof data.id !== 'string') return;
  const stream = data.stream instanceof ReadableStream ? data.stream : undefined;
  pending.set(data.id, { name: String(data.name), size: Number(data.size), port, ...(stream ? { stream } : {}) });
  setTimeout(() => pending.delete(data.id), UNCLAIMED_MS);
  port.postMessage({ type: 'ready' } satisfies DownloadPortMessage);
});

/** RFC 6266: an ASCII fallback and the exact UTF-8 name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function streamFrom(port: MessagePort): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return new Promise<void>((resolve) => {
          port.onmessage = (event: MessageEvent<DownloadPortMessage>) => {
            const message = event.data;
            if (message.type === 'chunk') controller.enqueue(message.chunk);
            else if (message.type === 'end') controller.close();
            else if (message.type === 'error') controller.error(new Error('The download failed'));
            else return;
            resolve();
          };
          port.postMessage({ type: 'pull' } satisfies DownloadPortMessage);
        });
      },
      cancel() {
        port.postMessage({ type: 'cancel' } satisfies DownloadPortMessage);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER_MARK }),
  );
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
  event.respondWith(new Response(download.stream ?? streamFrom(download.port), { headers }));
});
