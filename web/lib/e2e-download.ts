import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { plaintextPortStream } from '@shared/crypto/plaintext-port';
import { E2eDownloadError, MAX_IN_MEMORY_DOWNLOAD_BYTES, decryptE2eFileToPort, type OpenedE2eDelivery } from '@shared/transfer/e2e';
import { cryptoApi } from '@web/lib/crypto';
import { DISK_SPACE_FAILURE, isDiskSpaceError } from '@web/lib/disk-space';
import { serviceWorkerDecodeArgs } from '@shared/transfer/e2e-sw-download';
import type { DecryptReplyMessage, DecryptRequestMessage, DownloadReadyMessage, DownloadRequestMessage } from '@web/lib/download-sw-logic';
import { transferStore, type TransferItemState, type TransferMessage, type TransferOutcome } from '@web/lib/transfer-store';
import { saveBlob } from './save-blob';

/**
 * E2E downloads as transfers of kind `download` (DESIGN §4, web/README.md "Downloads"), by the
 * first path that works here:
 * - `serviceWorker`: /webjars/download-sw.js fetches the ciphertext and decrypts it itself with
 *   the one file key the crypto Worker hands out for this download (a non-extractable CryptoKey),
 *   and answers a hidden iframe's navigation with the plaintext (Content-Disposition: attachment);
 * - `picker` and `memory`: the crypto Worker fetches and decrypts (CryptoApi.decryptDownload) into
 *   a MessagePort, piped into the file showSaveFilePicker chose, or collected in a Blob (capped at
 *   MAX_IN_MEMORY_DOWNLOAD_BYTES).
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
export const serviceWorkerUsable = () => 'serviceWorker' in navigator && window.isSecureContext;

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

/**
 * Writes the plaintext somewhere: `port` is the reading end of the crypto Worker's plaintext port
 * (shared/crypto/plaintext-port.ts). Resolves once the bytes are handed over (picker, memory) or
 * the browser's download has started (service worker: the browser writes on its own).
 */
export type Sink = (port: MessagePort, file: { name: string; size: number }, signal: AbortSignal, decrypted: Promise<void>) => Promise<void>;

function pickerSink(handle: SaveFileHandle): Sink {
  // pipeTo aborts the writable on a failure or cancel, so no half-written file is kept.
  return async (port, _file, signal) => plaintextPortStream(port).pipeTo(await handle.createWritable(), { signal });
}

const memorySink: Sink = async (port, file) => {
  saveBlob(await new Response(plaintextPortStream(port)).blob(), file.name);
};

let worker: Promise<ServiceWorker> | undefined;

/** The active download worker (registered once; skipWaiting in the worker makes it active at once). */
export function downloadWorker(): Promise<ServiceWorker> {
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

const serviceWorkerSink: Sink = async (port, file, _signal, decrypted) => {
  const sw = await downloadWorker();
  const id = crypto.randomUUID();
  const reply = new MessageChannel();
  const frame = document.createElement('iframe');
  frame.hidden = true;
  await new Promise<void>((resolve) => {
    reply.port1.onmessage = (event: MessageEvent<DownloadReadyMessage>) => {
      if (event.data?.type !== 'ready') return;
      // The worker knows the id: navigating the frame makes the browser save its answer, which
      // streams from the port; the crypto Worker writes into the port's other end meanwhile.
      frame.src = `${DOWNLOAD_SW_SCOPE}${id}`;
      document.body.append(frame);
      resolve();
    };
    sw.postMessage({ type: 'download', id, name: file.name, size: file.size, port } satisfies DownloadRequestMessage, [reply.port2, port]);
  });
  reply.port1.onmessage = null;
  reply.port1.close();
  // The frame's navigation ends with the download; leave it a moment after the last byte, then remove it.
  await decrypted.catch(() => undefined);
  setTimeout(() => frame.remove(), 10_000);
};

/**
 * The service worker fetches and decrypts the file itself (web/README "Downloads"): the crypto
 * Worker hands out only this file's key, as a non-extractable CryptoKey; the worker reports
 * progress and the outcome on the reply port. Resolves when the last byte went to the browser's
 * download; rejects with E2eDownloadError, or the abort reason once `signal` aborted (the worker
 * stops; the browser's download fails).
 */
async function decryptInServiceWorker(options: {
  delivery: OpenedE2eDelivery;
  fileId: string;
  file: { name: string; size: number };
  url: string;
  signal: AbortSignal;
  onProgress: (bytes: number, totalBytes: number) => void;
}): Promise<void> {
  const { signal } = options;
  const [sw, decode] = await Promise.all([downloadWorker(), serviceWorkerDecodeArgs({ delivery: options.delivery, fileId: options.fileId, crypto: cryptoApi })]);
  signal.throwIfAborted();
  const id = crypto.randomUUID();
  const reply = new MessageChannel();
  const frame = document.createElement('iframe');
  frame.hidden = true;
  let onAbort = () => undefined as void;
  try {
    await new Promise<void>((resolve, reject) => {
      onAbort = () => {
        // Tells the worker to stop fetching; the browser's download then fails.
        reply.port1.postMessage({ type: 'cancel' });
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      reply.port1.onmessage = (event: MessageEvent<DownloadReadyMessage | DecryptReplyMessage>) => {
        const message = event.data;
        if (message?.type === 'ready') {
          // The worker knows the id: navigating the frame makes the browser save its answer.
          frame.src = `${DOWNLOAD_SW_SCOPE}${id}`;
          document.body.append(frame);
          options.onProgress(0, 0);
        } else if (message?.type === 'progress') options.onProgress(message.bytes, message.totalBytes);
        else if (message?.type === 'done') resolve();
        else if (message?.type === 'failed') reject(new E2eDownloadError(message.kind === 'fileDecryption' ? 'fileDecryption' : 'download', message.message));
      };
      const request: DecryptRequestMessage = { type: 'decrypt', id, name: options.file.name, url: options.url, ...decode };
      sw.postMessage(request, [reply.port2]);
    });
  } finally {
    signal.removeEventListener('abort', onAbort);
    reply.port1.onmessage = null;
    reply.port1.close();
    // The frame's navigation ends with the download; leave it a moment after the last byte, then remove it.
    setTimeout(() => frame.remove(), 10_000);
  }
}

/** A failed E2E download's message (exported for its unit test, web/lib/disk-space.test.ts). */
export function e2eDownloadFailureOf(error: unknown): TransferMessage {
  if (isDiskSpaceError(error)) return DISK_SPACE_FAILURE;
  // Anything may be thrown (a `null` or a string from a third party's code): read `kind` only from an object.
  const kind = typeof error === 'object' && error !== null ? (error as { kind?: unknown }).kind : undefined;
  if (kind === 'fileDecryption') return { key: 'deliveries:e2e.fileDecryptionFailed' };
  if (kind === 'tooLarge') return { key: 'deliveries:e2e.tooLarge' };
  return { key: 'deliveries:messages.downloadError' };
}

/** The browser's own download (service worker, else in memory): the way round the save picker. */
const browserDownloadSink = (): Sink => (serviceWorkerUsable() ? serviceWorkerSink : memorySink);

/**
 * The sink of one download, by the first path that works here (`downloadPath`): call it in the
 * click handler, before anything else awaits (the save picker needs the user's gesture). The plain
 * room downloads (lib/plain-download.ts) use it too, so every download writes out the same way.
 */
export async function chooseDownloadSink(suggestedName: string, avoidPicker?: boolean): Promise<Sink | 'noFileChosen'> {
  const path = avoidPicker && downloadPath() === 'picker' ? 'browser' : downloadPath();
  if (path === 'browser') return browserDownloadSink();
  if (path === 'picker') {
    try {
      return pickerSink(await savePicker()!({ suggestedName }));
    } catch (error) {
      if ((error as { name?: string }).name === 'AbortError') return 'noFileChosen';
      // No gesture or a blocked picker: the next path that works.
      return browserDownloadSink();
    }
  }
  return path === 'serviceWorker' ? serviceWorkerSink : memorySink;
}

/** Whether a sink collects the bytes in memory (capped at MAX_IN_MEMORY_DOWNLOAD_BYTES). */
export const isMemorySink = (sink: Sink): boolean => sink === memorySink;

/**
 * Starts the download of one E2E file as a transfer. Call it from the click handler: the save
 * picker needs the user's gesture, so it is asked before anything else awaits. Answers
 * `noFileChosen` when the picker came back without a file — the user closed it, or the browser has
 * no dialog to show (headless Chromium rejects at once): the caller says so and offers the
 * browser's own download (`avoidPicker`), so a click never ends in silence.
 */
export async function startE2eDownload(options: {
  delivery: OpenedE2eDelivery;
  fileId: string;
  onSuccess?: () => void;
  /** Skip the save picker: the browser's download (service worker or memory). */
  avoidPicker?: boolean;
  /** Where the ciphertext is (default: the delivery's content URL; data rooms pass theirs). */
  url?: string;
}): Promise<{ id: string; done: Promise<TransferOutcome> } | 'noFileChosen' | undefined> {
  const { delivery, fileId } = options;
  const file = delivery.files.find((f) => f.fileId === fileId);
  if (!file) return undefined;
  const sink = await chooseDownloadSink(file.name, options.avoidPicker);
  if (sink === 'noFileChosen') return sink;

  const item = (state: TransferItemState, bytesDone: number) => [{ name: file.name, state, bytesDone, totalBytes: file.size }];
  const started = transferStore.start({
    kind: 'download',
    title: file.name,
    items: item('pending', 0),
    async run({ signal, report }) {
      let lastPercent = -1;
      let lastState: TransferItemState = 'pending';
      try {
        if (isMemorySink(sink) && file.size > MAX_IN_MEMORY_DOWNLOAD_BYTES) throw new E2eDownloadError('tooLarge', 'Too large for memory');
        const url = options.url ?? deliveryContentUrl(delivery.deliveryUuid, fileId);
        const onProgress = (bytes: number, totalBytes: number) => {
          // Ciphertext bytes, scaled to the file's size; the last percent waits for the sink.
          const done = totalBytes > 0 ? Math.min(1, bytes / totalBytes) : 0;
          const percent = Math.min(99, Math.floor(done * 100));
          const state = done < 1 ? 'downloading' : 'decrypting';
          // Once per percent: a report per progress message would re-render the page needlessly.
          if (percent === lastPercent && state === lastState) return;
          lastPercent = percent;
          lastState = state;
          report({ percent, items: item(state, Math.floor(done * file.size)) });
        };
        if (sink === serviceWorkerSink) {
          await decryptInServiceWorker({ delivery, fileId, file, url, signal, onProgress });
          report({ percent: 100, items: item('success', file.size) });
          options.onSuccess?.();
          return { ok: true };
        }
        // Picker and memory: the crypto Worker fetches and decrypts, and writes into
        // `channel.port1`; the sink reads `channel.port2` here.
        const channel = new MessageChannel();
        const decrypting = decryptE2eFileToPort({
          delivery,
          fileId,
          crypto: cryptoApi,
          url,
          sink: channel.port1,
          signal,
          onProgress: ({ bytes, totalBytes }) => onProgress(bytes, totalBytes),
        });
        const writing = sink(channel.port2, file, signal, decrypting);
        const [decrypted, written] = await Promise.allSettled([decrypting, writing]);
        // The decryption's error names the cause (the sink then only saw its stream fail).
        // …except a full disk: the write's failure says it (SPEC §8), whatever the decryption saw after.
        if (written.status === 'rejected' && isDiskSpaceError(written.reason)) throw written.reason;
        if (decrypted.status === 'rejected') throw decrypted.reason;
        if (written.status === 'rejected') throw written.reason;
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
        return { ok: false, cancelled: false, failure: e2eDownloadFailureOf(error) };
      }
    },
  });
  return started;
}
