/**
 * Audio and video of a Secure room played by range (issue 31 §3; web/README.md "Downloads"): the
 * download service worker's media branch, kept apart from its download branch
 * (download-sw-logic.ts). The worker holds no key and no file: the page announces a media stream
 * with a MessagePort; the player (inside a frame the worker serves, so its requests reach the
 * worker) asks for byte ranges; each is passed to the page through the port, which fetches the
 * ciphertext records covering it, has the crypto Worker decrypt them (each record's AES-GCM tag
 * checked) and answers the plaintext bytes; the worker answers 206 with Content-Range.
 * Framework- and window-free, so the unit test drives it in Node with real MessagePorts.
 */

/** What the page posts to the worker for one media preview; `port` answers the range asks. */
export interface MediaStreamMessage {
  type: 'media';
  id: string;
  /** Plaintext bytes. */
  size: number;
  /** The sniffed type (audio/…, video/…). */
  mimeType: string;
  /** The player's accessible name (the file name). */
  label: string;
  kind: 'audio' | 'video';
  port: MessagePort;
}

/** The page closed the preview: the stream is forgotten. */
export interface MediaEndMessage {
  type: 'media-end';
  id: string;
}

/** Sent on the stream's port with a reply port: plaintext bytes [start, end). */
export interface MediaRangeAsk {
  start: number;
  end: number;
}
export type MediaRangeAnswer = { bytes: Uint8Array } | { error: string };

/** Below the worker's scope: the frame's page and the player's byte ranges. */
export const MEDIA_FRAME_PATH = 'media-frame/';
export const MEDIA_BYTES_PATH = 'media/';
/** At most this much per answer: a seek costs one such piece, memory stays flat (a player asks again for the rest). */
export const MEDIA_PIECE_BYTES = 2 * 1024 * 1024;

/**
 * The range a `Range: bytes=a-b` / `bytes=a-` header asks for, end exclusive and cut to
 * MEDIA_PIECE_BYTES; no header: from 0. Null when it lies outside the file (416).
 */
export function mediaRange(header: string | null, size: number): { start: number; end: number } | null {
  let start = 0;
  let last = size - 1;
  if (header) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
    if (!match || (match[1] === '' && match[2] === '')) return null;
    if (match[1] === '') {
      // A suffix: the last n bytes.
      start = Math.max(0, size - Number(match[2]));
    } else {
      start = Number(match[1]);
      if (match[2] !== '') last = Math.min(last, Number(match[2]));
    }
  }
  if (start >= size || last < start) return null;
  return { start, end: Math.min(last + 1, start + MEDIA_PIECE_BYTES) };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The frame's page: the player alone, its source below the worker's scope. */
function framePage(stream: { kind: 'audio' | 'video'; label: string }, src: string, lang: string): string {
  const label = escapeHtml(stream.label);
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>${label}</title><style>html,body{margin:0;height:100%;background:#000}${stream.kind}{display:block;width:100%;height:100%}</style></head><body><${stream.kind} src="${escapeHtml(src)}" controls preload="metadata" aria-label="${label}"></${stream.kind}></body></html>`;
}

export function createMediaRegistry() {
  const streams = new Map<string, Omit<MediaStreamMessage, 'type' | 'id'>>();

  async function ask(port: MessagePort, range: MediaRangeAsk): Promise<Uint8Array> {
    const reply = new MessageChannel();
    const answer = new Promise<MediaRangeAnswer>((resolve) => {
      reply.port1.onmessage = (event: MessageEvent<MediaRangeAnswer>) => resolve(event.data);
    });
    port.postMessage(range, [reply.port2]);
    const data = await answer;
    reply.port1.close();
    if ('error' in data) throw new Error(data.error);
    return data.bytes;
  }

  return {
    /** Takes the page's `media` / `media-end` message; anything else is ignored (false). */
    announce(data: unknown): boolean {
      const message = data as Partial<MediaStreamMessage | MediaEndMessage> | null | undefined;
      if (message?.type === 'media-end' && typeof message.id === 'string') {
        const stream = streams.get(message.id);
        stream?.port.close();
        streams.delete(message.id);
        return true;
      }
      if (message?.type !== 'media' || typeof message.id !== 'string' || !(message.port instanceof MessagePort)) return false;
      const kind = message.kind === 'audio' ? 'audio' : 'video';
      streams.set(message.id, { size: Number(message.size), mimeType: String(message.mimeType), label: String(message.label), kind, port: message.port });
      return true;
    },
    /** The answer to a request below the scope, or undefined when it is not a known media stream's (the network's 404). */
    respond(request: { url: string; headers: { get(name: string): string | null } }, scope: string): Promise<Response> | undefined {
      const path = new URL(request.url).pathname;
      const scopePath = new URL(scope).pathname;
      const [frame, bytes] = [`${scopePath}${MEDIA_FRAME_PATH}`, `${scopePath}${MEDIA_BYTES_PATH}`];
      if (path.startsWith(frame)) {
        const id = path.slice(frame.length);
        const stream = streams.get(id);
        if (!stream) return undefined;
        const lang = new URL(request.url).searchParams.get('lang') ?? 'en';
        const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'", 'X-Content-Type-Options': 'nosniff' };
        return Promise.resolve(new Response(framePage(stream, `${bytes}${id}`, lang), { headers }));
      }
      if (!path.startsWith(bytes)) return undefined;
      const stream = streams.get(path.slice(bytes.length));
      if (!stream) return undefined;
      const range = mediaRange(request.headers.get('range'), stream.size);
      if (!range) return Promise.resolve(new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${stream.size}` } }));
      return ask(stream.port, range).then(
        (body) =>
          new Response(body as Uint8Array<ArrayBuffer>, {
            status: 206,
            headers: {
              'Content-Type': stream.mimeType,
              'Content-Length': String(body.byteLength),
              'Content-Range': `bytes ${range.start}-${range.start + body.byteLength - 1}/${stream.size}`,
              'Accept-Ranges': 'bytes',
              'Cache-Control': 'no-store',
              'X-Content-Type-Options': 'nosniff',
            },
          }),
        // A record that does not authenticate (or a failed fetch): the player sees an error, never unchecked bytes.
        () => new Response(null, { status: 502 }),
      );
    },
    /** Ids announced and not yet ended (for tests). */
    ids: (): string[] => [...streams.keys()],
  };
}

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

/** The part of a ServiceWorkerGlobalScope the media branch uses. */
export interface MediaWorkerScope {
  registration: { scope: string };
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** Adds the media branch to the worker (its own listeners: the download branch ignores these paths, unknown ids there). */
export function serveMediaRanges(sw: MediaWorkerScope, registry = createMediaRegistry()): void {
  sw.addEventListener('message', (event) => void registry.announce(event.data));
  sw.addEventListener('fetch', (event) => {
    const response = registry.respond(event.request, sw.registration.scope);
    if (response) event.respondWith(response);
  });
}
