import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { E2eDownloadError, MAX_IN_MEMORY_DOWNLOAD_BYTES, openE2eFileStream, type OpenedE2eDelivery } from '@shared/transfer/e2e';
import { cryptoApi } from '@web/lib/crypto';
import { transferStore, type TransferItemState, type TransferMessage, type TransferOutcome } from '@web/lib/transfer-store';

/**
 * E2E downloads as transfers of kind `download` (DESIGN §4, web/README.md "Downloads"). The
 * ciphertext is decrypted in the crypto Worker while it arrives; the plaintext stream goes to disk
 * by the first path that works here:
 * - `picker`: showSaveFilePicker (Chromium) — the stream is piped into the chosen file;
 * - `serviceWorker`: /webjars/download-sw.js answers a hidden iframe's navigation with the bytes the
 *   page hands it over a MessageChannel (Content-Disposition: attachment); it never sees a key;
 * - `memory`: a Blob, capped at MAX_IN_MEMORY_DOWNLOAD_BYTES.
 */
export type DownloadPath = 'picker' | 'serviceWorker' | 'memory';

/** Test hook (documented in web/README.md): localStorage[DOWNLOAD_PATH_KEY] forces a path. */
export const DOWNLOAD_PATH_KEY = 'kuvert.downloadPath';
export const DOWNLOAD_SW_URL = '/webjars/download-sw.js';
export const DOWNLOAD_SW_SCOPE = '/webjars/download/';

interface SaveFileHandle {
  createWritable(): Promise<WritableStream<Uint8Array>>;
}
type SaveFilePicker = (options: { suggestedName: string }) => Promise<SaveFileHandle>;

const savePicker = (): SaveFilePicker | undefined => (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
const serviceWorkerUsable = () => 'serviceWorker' in navigator && window.isSecureContext;

export function downloadPath(): DownloadPath {
  let forced: string | null = null;
  try {
    forced = window.localStorage.getItem(DOWNLOAD_PATH_KEY);
  } catch {
    // Storage can be disabled; then the browser's abilities decide.
  }
  if (forced === 'picker' && savePicker()) return 'picker';
  if (forced === 'serviceWorker' && serviceWorkerUsable()) return 'serviceWorker';
  if (forced === 'memory') return 'memory';
  if (savePicker()) return 'picker';
  if (serviceWorkerUsable()) return 'serviceWorker';
  return 'memory';
}

/** Writes the plaintext somewhere; resolves once every byte was handed over. */
type Sink = (plaintext: ReadableStream<Uint8Array>, file: { name: string; size: number }, signal: AbortSignal) => Promise<void>;

function pickerSink(handle: SaveFileHandle): Sink {
  // pipeTo aborts the writable on a failure or cancel, so no half-written file is kept.
  return async (plaintext, _file, signal) => plaintext.pipeTo(await handle.createWritable(), { signal });
}

const memorySink: Sink = async (plaintext, file) => {
  const blob = await new Response(plaintext).blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

let worker: Promise<ServiceWorker> | undefined;

/** The active download worker (registered once; skipWaiting in the worker makes it active at once). */
function downloadWorker(): Promise<ServiceWorker> {
  worker ??= (async () => {
    const registration = await navigator.serviceWorker.register(DOWNLOAD_SW_URL, { scope: DOWNLOAD_SW_SCOPE });
    const candidate = registration.active ?? registration.waiting ?? registration.installing;
    if (!candidate) throw new Error('No download worker');
    if (candidate.state !== 'activated') {
      await new Promise<void>((resolve, reject) => {
        candidate.addEventListener('statechange', () => {
          if (candidate.state === 'activated') resolve();
          else if (candidate.state === 'redundant') reject(new Error('The download worker was not installed'));
        });
      });
    }
    return candidate;
  })();
  worker.catch(() => (worker = undefined));
  return worker;
}

/** Messages between the page (port1) and the download worker (port2); see src/web/download-sw.ts. */
export type DownloadPortMessage =
  | { type: 'ready' }
  | { type: 'pull' }
  | { type: 'cancel' }
  | { type: 'chunk'; chunk: Uint8Array }
  | { type: 'end' }
  | { type: 'error' };

let transferable: boolean | undefined;

/** Streams can be posted (Chromium, Firefox): then no message per chunk is needed. */
function streamsTransferable(): boolean {
  if (transferable === undefined) {
    const { port1, port2 } = new MessageChannel();
    try {
      const probe = new ReadableStream();
      port1.postMessage(probe, [probe as unknown as Transferable]);
      transferable = true;
    } catch {
      transferable = false;
    } finally {
      port1.close();
      port2.close();
    }
  }
  return transferable;
}

const serviceWorkerSink: Sink = async (plaintext, file, signal) => {
  const sw = await downloadWorker();
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const port = channel.port1;
  const frame = document.createElement('iframe');
  frame.hidden = true;
  if (streamsTransferable()) {
    // The worker reads the stream itself; pipeTo settles once the last chunk is handed on, and a
    // cancel (ours, or the user's in the browser's download bar) errors both ends.
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const piping = plaintext.pipeTo(writable, { signal });
    port.onmessage = (event: MessageEvent<DownloadPortMessage>) => {
      if (event.data.type !== 'ready') return;
      frame.src = `${DOWNLOAD_SW_SCOPE}${id}`;
      document.body.append(frame);
    };
    sw.postMessage({ type: 'download', id, name: file.name, size: file.size, stream: readable }, [channel.port2, readable as unknown as Transferable]);
    try {
      await piping;
    } finally {
      setTimeout(() => {
        frame.remove();
        port.close();
      }, 10_000);
    }
    return;
  }
  const reader = plaintext.getReader();
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        port.postMessage({ type: 'error' } satisfies DownloadPortMessage);
        void reader.cancel().catch(() => undefined);
        reject(error);
      };
      signal.addEventListener('abort', () => fail(signal.reason), { once: true });
      port.onmessage = async (event: MessageEvent<DownloadPortMessage>) => {
        const message = event.data;
        if (message.type === 'ready') {
          // The worker knows the id: navigating the frame makes the browser save its answer.
          frame.src = `${DOWNLOAD_SW_SCOPE}${id}`;
          document.body.append(frame);
        } else if (message.type === 'pull') {
          try {
            const next = await reader.read();
            if (next.done) {
              port.postMessage({ type: 'end' } satisfies DownloadPortMessage);
              resolve();
            } else {
              const chunk = next.value;
              // Transfer the buffer when the chunk owns it whole (no copy), else copy it.
              const own = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
              port.postMessage({ type: 'chunk', chunk } satisfies DownloadPortMessage, own ? [chunk.buffer as ArrayBuffer] : []);
            }
          } catch (error) {
            fail(error);
          }
        } else if (message.type === 'cancel') {
          // The browser's own download was cancelled (by the user in its download bar).
          fail(new DOMException('The browser cancelled the download', 'AbortError'));
        }
      };
      sw.postMessage({ type: 'download', id, name: file.name, size: file.size }, [channel.port2]);
    });
  } finally {
    port.onmessage = null;
    // The frame's navigation ends when the download does; leave it a moment, then remove it.
    setTimeout(() => {
      frame.remove();
      port.close();
    }, 10_000);
  }
};

function failureOf(error: unknown): TransferMessage {
  const kind = (error as { kind?: string }).kind;
  if (kind === 'fileDecryption') return { key: 'deliveries:e2e.fileDecryptionFailed' };
  if (kind === 'tooLarge') return { key: 'deliveries:e2e.tooLarge' };
  return { key: 'deliveries:messages.downloadError' };
}

/**
 * Starts the download of one E2E file as a transfer. Call it from the click handler: the save
 * picker needs the user's gesture, so it is asked before anything else awaits. Returns undefined
 * when the user closed the picker without choosing a file.
 */
export async function startE2eDownload(options: {
  delivery: OpenedE2eDelivery;
  fileId: string;
  onSuccess?: () => void;
}): Promise<{ id: string; done: Promise<TransferOutcome> } | undefined> {
  const { delivery, fileId } = options;
  const file = delivery.files.find((f) => f.fileId === fileId);
  if (!file) return undefined;
  const path = downloadPath();
  let sink: Sink;
  if (path === 'picker') {
    try {
      sink = pickerSink(await savePicker()!({ suggestedName: file.name }));
    } catch (error) {
      if ((error as { name?: string }).name === 'AbortError') return undefined;
      // No gesture or a blocked picker: the next path that works.
      sink = serviceWorkerUsable() ? serviceWorkerSink : memorySink;
    }
  } else sink = path === 'serviceWorker' ? serviceWorkerSink : memorySink;

  const item = (state: TransferItemState, bytesDone: number) => [{ name: file.name, state, bytesDone, totalBytes: file.size }];
  const started = transferStore.start({
    kind: 'download',
    title: file.name,
    items: item('pending', 0),
    async run({ signal, report }) {
      let lastPercent = -1;
      let lastState: TransferItemState = 'pending';
      try {
        if (sink === memorySink && file.size > MAX_IN_MEMORY_DOWNLOAD_BYTES) throw new E2eDownloadError('tooLarge', 'Too large for memory');
        const { plaintext } = await openE2eFileStream({
          delivery,
          fileId,
          crypto: cryptoApi,
          url: deliveryContentUrl(delivery.deliveryUuid, fileId),
          signal,
          onProgress: ({ bytes, totalBytes }) => {
            // Ciphertext bytes, scaled to the file's size; the last percent waits for the sink.
            const done = totalBytes > 0 ? Math.min(1, bytes / totalBytes) : 0;
            const percent = Math.min(99, Math.floor(done * 100));
            const state = done < 1 ? 'downloading' : 'decrypting';
            // Once per percent: a report per network chunk would re-render the page thousands of times.
            if (percent === lastPercent && state === lastState) return;
            lastPercent = percent;
            lastState = state;
            report({ percent, items: item(state, Math.floor(done * file.size)) });
          },
        });
        await sink(plaintext, file, signal);
        report({ percent: 100, items: item('success', file.size) });
        options.onSuccess?.();
        return { ok: true };
      } catch (error) {
        if (signal.aborted) {
          report({ percent: 0, items: item('cancelled', 0) });
          return { ok: false, cancelled: true };
        }
        console.debug('[download] failed', error);
        report({ percent: 0, items: item('failed', 0) });
        return { ok: false, cancelled: false, failure: failureOf(error) };
      }
    },
  });
  return started;
}
