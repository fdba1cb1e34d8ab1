import { PlaintextPortWriter } from '@shared/crypto/plaintext-port';
import { MAX_IN_MEMORY_DOWNLOAD_BYTES } from '@shared/transfer/e2e';
import { DISK_SPACE_FAILURE, isDiskSpaceError } from '@web/lib/disk-space';
import { chooseDownloadSink, isMemorySink } from '@web/lib/e2e-download';
import { transferStore, type TransferItem, type TransferItemState, type TransferMessage, type TransferOutcome, type TransferToasts } from '@web/lib/transfer-store';

/**
 * Downloads of unencrypted bytes (a data room's file, version or ZIP, and a Secure room's ZIP built
 * in the page) as transfers of kind `download` in the transfer centre (web/README.md "Data rooms"),
 * written out by the same sinks as the E2E downloads (`chooseDownloadSink`: save picker, download
 * service worker, memory). The page reads the bytes itself (a fetch, or a stream it builds) and
 * writes them into a plaintext port (shared/crypto/plaintext-port.ts) whose reading end the sink
 * gets, so the bytes stream to disk with the port's backpressure and the transfer counts them as
 * they pass. A ZIP has no known size: its item is `unknownTotal` and the centre shows the bytes so
 * far under an indeterminate bar.
 */

class PlainDownloadError extends Error {
  constructor(readonly kind: 'http' | 'tooLarge', message: string) {
    super(message);
    this.name = 'PlainDownloadError';
  }
}

/** A failure of a streamed download that names its own text (the transfer's failure message). */
export class DownloadFailure extends Error {
  constructor(readonly failure: TransferMessage) {
    super(failure.key);
    this.name = 'DownloadFailure';
  }
}

/** A failed plain download's message (exported for its unit test, web/lib/disk-space.test.ts). */
export function plainDownloadFailureOf(error: unknown): TransferMessage {
  if (error instanceof DownloadFailure) return error.failure;
  if (isDiskSpaceError(error)) return DISK_SPACE_FAILURE;
  if (error instanceof PlainDownloadError && error.kind === 'tooLarge') return { key: 'deliveries:e2e.tooLarge' };
  return { key: 'deliveries:messages.downloadError' };
}

const FLUSH_BYTES = 1024 * 1024;

/** Reads the bytes into the port: every chunk queued and flushed (the port's window is the backpressure). */
async function pump(body: ReadableStream<Uint8Array>, writer: PlaintextPortWriter, limit: number, onBytes: (bytes: number) => void): Promise<void> {
  const reader = body.getReader();
  let bytes = 0;
  let queued = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limit) throw new PlainDownloadError('tooLarge', 'Too large for memory');
      writer.queue(value);
      queued += value.byteLength;
      // One message per MiB, not per network chunk (tens of KiB).
      if (queued >= FLUSH_BYTES) {
        queued = 0;
        await writer.flush();
      }
      onBytes(bytes);
    }
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  }
  await writer.end();
}

async function fetched(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(url, { signal, credentials: 'same-origin', headers });
  if (!response.ok || !response.body) throw new PlainDownloadError('http', `HTTP ${response.status}`);
  return response.body;
}

/**
 * Starts one plain download as a transfer. Call it from the click handler (the save picker needs
 * the user's gesture). `size` is the file's size in bytes, or undefined when unknown (a ZIP). A save
 * picker closed without a file falls back to the browser's own download, as the E2E room downloads do.
 */
export function startPlainDownload(options: {
  url: string;
  name: string;
  size?: number;
  /** Request headers of the fetch (a public link's one-time token, which must not go into the URL). */
  headers?: Record<string, string>;
}): Promise<{ id: string; done: Promise<TransferOutcome> }> {
  const { url, headers = {}, ...rest } = options;
  return startStreamDownload({ ...rest, open: (signal) => fetched(url, headers, signal) });
}

/**
 * The same for bytes from any stream: `open` answers them (aborted with `signal` on a cancel); a
 * DownloadFailure it or the stream throws is the transfer's failure text. `afterwards`, once every
 * byte is written, may still answer a failure text (a ZIP saved without some of its files: SPEC §8
 * partial download failure), and `toasts` replace the default toast texts.
 */
export async function startStreamDownload(options: {
  name: string;
  size?: number;
  open: (signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;
  afterwards?: () => TransferMessage | undefined;
  toasts?: TransferToasts;
}): Promise<{ id: string; done: Promise<TransferOutcome> }> {
  const { name, size } = options;
  let sink = await chooseDownloadSink(name);
  if (sink === 'noFileChosen') sink = (await chooseDownloadSink(name, true)) as Exclude<typeof sink, 'noFileChosen'>;
  const chosen = sink;
  const known = size !== undefined;
  const item = (state: TransferItemState, bytesDone: number): TransferItem[] => [
    { name, state, bytesDone, totalBytes: known ? size : 0, ...(known ? {} : { unknownTotal: true }) },
  ];
  return transferStore.start({
    kind: 'download',
    title: name,
    items: item('pending', 0),
    ...(options.toasts ? { toasts: options.toasts } : {}),
    async run({ signal, report }) {
      let lastPercent = -1;
      let lastBytes = 0;
      let received = 0;
      try {
        if (isMemorySink(chosen) && known && size > MAX_IN_MEMORY_DOWNLOAD_BYTES) throw new PlainDownloadError('tooLarge', 'Too large for memory');
        const channel = new MessageChannel();
        const controller = new AbortController();
        const stop = () => controller.abort();
        signal.addEventListener('abort', stop, { once: true });
        // The reader's cancel (e.g. in the browser's download bar) stops the fetch too.
        const writer = new PlaintextPortWriter(channel.port1, stop);
        report({ percent: 0, items: item('downloading', 0) });
        const limit = isMemorySink(chosen) ? MAX_IN_MEMORY_DOWNLOAD_BYTES : Number.POSITIVE_INFINITY;
        const onBytes = (bytes: number) => {
          received = bytes;
          const percent = known && size > 0 ? Math.min(99, Math.floor((bytes / size) * 100)) : 0;
          // Once per percent (or per MiB without a size): the store publishes at most every 250 ms anyway.
          if (known ? percent === lastPercent : bytes - lastBytes < 1024 * 1024) return;
          lastPercent = percent;
          lastBytes = bytes;
          report({ percent, items: item('downloading', bytes) });
        };
        const pumping = (async () => pump(await options.open(controller.signal), writer, limit, onBytes))().catch((error: unknown) => {
          // The reader's stream errors, so no partial file is kept.
          writer.fail(error instanceof Error ? error.message : 'The download failed');
          throw error;
        });
        const writing = chosen(channel.port2, { name, size: known ? size : -1 }, signal, pumping);
        const [pumped, written] = await Promise.allSettled([pumping, writing]);
        signal.removeEventListener('abort', stop);
        // A full disk stops the reading too; the write's failure names the cause (SPEC §8).
        if (written.status === 'rejected' && isDiskSpaceError(written.reason)) throw written.reason;
        if (pumped.status === 'rejected') throw pumped.reason;
        if (written.status === 'rejected') throw written.reason;
        const total = known ? size : received;
        // Saved, yet not whole (a ZIP without some of its files): the transfer says which.
        const incomplete = options.afterwards?.();
        if (incomplete) {
          report({ percent: 100, items: [{ ...item('failed', total)[0]!, totalBytes: total }] });
          return { ok: false, cancelled: false, failure: incomplete };
        }
        report({ percent: 100, items: [{ ...item('success', total)[0]!, totalBytes: total }] });
        return { ok: true };
      } catch (error) {
        if (signal.aborted) {
          report({ percent: 0, items: item('cancelled', 0) });
          return { ok: false, cancelled: true };
        }
        console.debug('[download] failed', error);
        report({ percent: 0, items: item('failed', 0) });
        return { ok: false, cancelled: false, failure: plainDownloadFailureOf(error) };
      }
    },
  });
}

/**
 * Click handler for a download link: a plain click becomes a transfer; a click with a modifier
 * (new tab, save link as…) or another button stays the browser's own.
 */
export function plainDownloadClick(options: { url: string; name: string; size?: number }) {
  return (event: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean; preventDefault: () => void }) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void startPlainDownload(options);
  };
}
