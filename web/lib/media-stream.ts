import { DOWNLOAD_SW_SCOPE, downloadWorker, serviceWorkerUsable } from '@web/lib/e2e-download';
import { MEDIA_FRAME_PATH, type MediaEndMessage, type MediaRangeAnswer, type MediaRangeAsk, type MediaStreamMessage } from '@web/lib/media-sw-logic';

/** Answers plaintext bytes [start, end) of the file (rejects when they do not authenticate). */
export type MediaReader = (start: number, end: number) => Promise<Uint8Array>;

/** Whether media can play by range here (the download service worker is usable; else the caller decrypts whole). */
export const mediaByRangeUsable = serviceWorkerUsable;

/** Registers (or finds) the download service worker ahead of `openMediaStream`, while the caller still reads the file's first bytes. */
export function warmMediaStream(): void {
  if (mediaByRangeUsable()) downloadWorker().catch(() => undefined);
}

/**
 * Announces a media stream to the download service worker (web/lib/media-sw-logic.ts) and answers
 * its range asks with `read`. Answers the frame URL that plays it and `close`, which ends the stream.
 */
export async function openMediaStream(options: { size: number; mimeType: string; label: string; kind: 'audio' | 'video'; lang: string; read: MediaReader }): Promise<{ src: string; close: () => void }> {
  const sw = await downloadWorker();
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<MediaRangeAsk>) => {
    const reply = event.ports[0];
    if (!reply) return;
    const { start, end } = event.data;
    options.read(start, end).then(
      (bytes) => reply.postMessage({ bytes } satisfies MediaRangeAnswer, [bytes.buffer]),
      (error: unknown) => {
        console.debug('[media] range failed', error);
        reply.postMessage({ error: error instanceof Error ? error.message : 'failed' } satisfies MediaRangeAnswer);
      },
    );
  };
  const { size, mimeType, label, kind } = options;
  sw.postMessage({ type: 'media', id, size, mimeType, label, kind, port: channel.port2 } satisfies MediaStreamMessage, [channel.port2]);
  return {
    src: `${DOWNLOAD_SW_SCOPE}${MEDIA_FRAME_PATH}${id}?lang=${encodeURIComponent(options.lang)}`,
    close: () => {
      sw.postMessage({ type: 'media-end', id } satisfies MediaEndMessage);
      channel.port1.close();
    },
  };
}
