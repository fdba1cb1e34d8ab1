import { afterEach, describe, expect, it } from 'vitest';
import { createMediaRegistry, MEDIA_PIECE_BYTES, mediaRange, type MediaRangeAnswer, type MediaRangeAsk, type MediaStreamMessage } from './media-sw-logic';

const SCOPE = 'https://kuvert.test/webjars/download/';
const opened: MessagePort[] = [];
const SIZE = 5 * 1024 * 1024;
/** The file the page side serves: byte i is i mod 251. */
const byteAt = (i: number) => i % 251;

/** A page side answering each range ask from the file (or with `error` when told). */
function pageSide(options: { fail?: boolean } = {}) {
  const channel = new MessageChannel();
  opened.push(channel.port1, channel.port2);
  const asks: MediaRangeAsk[] = [];
  channel.port1.onmessage = (event: MessageEvent<MediaRangeAsk>) => {
    asks.push(event.data);
    const reply = event.ports[0]!;
    const { start, end } = event.data;
    const answer: MediaRangeAnswer = options.fail ? { error: 'record 3 does not authenticate' } : { bytes: Uint8Array.from({ length: end - start }, (_, k) => byteAt(start + k)) };
    reply.postMessage(answer);
  };
  return { port: channel.port2, asks };
}

const announce = (id: string, port: MessagePort): MediaStreamMessage => ({ type: 'media', id, size: SIZE, mimeType: 'video/mp4', label: 'Clip <1>.mp4', kind: 'video', port });
const get = (path: string, range?: string) => ({ url: `${SCOPE}${path}`, headers: new Headers(range ? { range } : {}) });

afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

describe('media by range in the download service worker', () => {
  it('reads Range headers: open end cut to a piece, closed, suffix; outside the file is null', () => {
    expect(mediaRange('bytes=0-', SIZE)).toEqual({ start: 0, end: MEDIA_PIECE_BYTES });
    expect(mediaRange('bytes=100-199', SIZE)).toEqual({ start: 100, end: 200 });
    expect(mediaRange('bytes=-10', SIZE)).toEqual({ start: SIZE - 10, end: SIZE });
    expect(mediaRange(null, 10)).toEqual({ start: 0, end: 10 });
    expect(mediaRange(`bytes=${SIZE}-`, SIZE)).toBeNull();
    expect(mediaRange('bytes=5-2', SIZE)).toBeNull();
    expect(mediaRange('items=0-1', SIZE)).toBeNull();
  });

  it('serves the player frame and answers a seek with 206 and exactly the asked bytes, asked of the page', async () => {
    const registry = createMediaRegistry();
    const page = pageSide();
    expect(registry.announce(announce('m-1', page.port))).toBe(true);

    const frame = await registry.respond(get('media-frame/m-1?lang=de'), SCOPE)!;
    const html = await frame.text();
    expect(frame.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(frame.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('<video src="/webjars/download/media/m-1" controls');
    expect(html).toContain('aria-label="Clip &#60;1&#62;.mp4"');
    expect(html).toContain('lang="de"');

    const seek = 3 * 1024 * 1024 + 17;
    const response = await registry.respond(get('media/m-1', `bytes=${seek}-${seek + 999}`), SCOPE)!;
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${seek}-${seek + 999}/${SIZE}`);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body).toEqual(Uint8Array.from({ length: 1000 }, (_, k) => byteAt(seek + k)));
    expect(page.asks).toEqual([{ start: seek, end: seek + 1000 }]);
  });

  it('a range that does not authenticate is an error response, never bytes; outside the file 416; unknown or ended ids are not answered', async () => {
    const registry = createMediaRegistry();
    const page = pageSide({ fail: true });
    registry.announce(announce('m-2', page.port));
    expect((await registry.respond(get('media/m-2', 'bytes=0-'), SCOPE)!).status).toBe(502);
    const outside = await registry.respond(get('media/m-2', `bytes=${SIZE}-`), SCOPE)!;
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    expect(registry.respond(get('media/unknown', 'bytes=0-'), SCOPE)).toBeUndefined();
    expect(registry.respond(get('some-download-id'), SCOPE)).toBeUndefined();
    expect(registry.announce({ type: 'media-end', id: 'm-2' })).toBe(true);
    expect(registry.ids()).toEqual([]);
    expect(registry.respond(get('media-frame/m-2'), SCOPE)).toBeUndefined();
    expect(registry.announce({ type: 'download', id: 'x' })).toBe(false);
  });
});
