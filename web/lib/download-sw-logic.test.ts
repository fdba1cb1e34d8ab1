import { PlaintextPortWriter } from '@shared/crypto/plaintext-port';
import { afterEach, describe, expect, it } from 'vitest';
import { UNCLAIMED_DOWNLOAD_MS, createDownloadRegistry, serveDownloadWorker, type DownloadRequestMessage, type DownloadWorkerScope } from './download-sw-logic';

const SCOPE = 'https://kuvert.test/webjars/download/';
const opened: MessagePort[] = [];

/** A real plaintext port (as the crypto Worker's): the writer's end and the reading end the page hands over. */
function plaintextPort() {
  const channel = new MessageChannel();
  opened.push(channel.port1, channel.port2);
  let cancelled = 0;
  const writer = new PlaintextPortWriter(channel.port1, () => void cancelled++);
  return { writer, port: channel.port2, cancelled: () => cancelled };
}

/** The reply port the page listens on; resolves with the worker's first answer. */
function replyPort() {
  const channel = new MessageChannel();
  opened.push(channel.port1, channel.port2);
  const answer = new Promise<unknown>((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
  });
  return { port: channel.port2, answer };
}

const request = (id: string, name: string, size: number, port: MessagePort): DownloadRequestMessage => ({ type: 'download', id, name, size, port });

afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

describe('download service worker logic', () => {
  it('answers ready, then streams the announced file once with its Content-Disposition', async () => {
    const registry = createDownloadRegistry({ schedule: () => undefined });
    const { writer, port } = plaintextPort();
    const reply = replyPort();
    expect(registry.announce(request('id-1', 'Bericht März "final".pdf', 6, port), reply.port)).toBe(true);
    expect(await reply.answer).toEqual({ type: 'ready' });

    const response = registry.respond(`${SCOPE}id-1`, SCOPE);
    expect(response).toBeDefined();
    expect(response!.headers.get('content-disposition')).toBe(
      `attachment; filename="Bericht Marz _final_.pdf"; filename*=UTF-8''Bericht%20M%C3%A4rz%20%22final%22.pdf`,
    );
    expect(response!.headers.get('content-length')).toBe('6');
    expect(response!.headers.get('content-type')).toBe('application/octet-stream');
    expect(response!.headers.get('x-content-type-options')).toBe('nosniff');

    writer.queue(new Uint8Array([1, 2, 3]));
    writer.queue(new Uint8Array([4, 5, 6]));
    await writer.flush();
    await writer.end();
    expect([...new Uint8Array(await response!.arrayBuffer())]).toEqual([1, 2, 3, 4, 5, 6]);

    // Fetched once: the frame's reload goes to the network (a 404), nothing is replayed.
    expect(registry.respond(`${SCOPE}id-1`, SCOPE)).toBeUndefined();
    expect(registry.pendingIds()).toEqual([]);
  });

  it('sends no Content-Length for a download of unknown size (a streamed ZIP)', async () => {
    const registry = createDownloadRegistry({ schedule: () => undefined });
    const { writer, port } = plaintextPort();
    const reply = replyPort();
    expect(registry.announce(request('zip-1', 'Room.zip', -1, port), reply.port)).toBe(true);
    await reply.answer;
    const response = registry.respond(`${SCOPE}zip-1`, SCOPE)!;
    expect(response.headers.get('content-length')).toBeNull();
    writer.queue(new Uint8Array([80, 75, 3, 4]));
    await writer.end();
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([80, 75, 3, 4]);
  });

  it('ignores unknown ids, paths outside the scope and messages that are not downloads', () => {
    const registry = createDownloadRegistry({ schedule: () => undefined });
    const { port } = plaintextPort();
    const reply = replyPort();
    expect(registry.announce({ type: 'other', id: 'x', port }, reply.port)).toBe(false);
    expect(registry.announce(request('x', 'a', 1, port), undefined)).toBe(false);
    expect(registry.announce({ type: 'download', id: 7, name: 'a', size: 1, port }, reply.port)).toBe(false);
    expect(registry.announce({ type: 'download', id: 'x', name: 'a', size: 1, port: 'not a port' }, reply.port)).toBe(false);
    expect(registry.announce(null, reply.port)).toBe(false);
    expect(registry.pendingIds()).toEqual([]);

    expect(registry.announce(request('known', 'a.txt', 1, port), reply.port)).toBe(true);
    expect(registry.respond(`${SCOPE}unknown`, SCOPE)).toBeUndefined();
    expect(registry.respond('https://kuvert.test/webjars/known', SCOPE)).toBeUndefined();
    expect(registry.pendingIds()).toEqual(['known']);
  });

  it('drops a download nobody fetched and tells the writer to stop', async () => {
    const scheduled: Array<{ drop: () => void; ms: number }> = [];
    const registry = createDownloadRegistry({ schedule: (drop, ms) => void scheduled.push({ drop, ms }) });
    const unclaimed = plaintextPort();
    const fetched = plaintextPort();
    registry.announce(request('late', 'a.txt', 3, unclaimed.port), replyPort().port);
    registry.announce(request('taken', 'b.txt', 3, fetched.port), replyPort().port);
    expect(scheduled.map((s) => s.ms)).toEqual([UNCLAIMED_DOWNLOAD_MS, UNCLAIMED_DOWNLOAD_MS]);
    const response = registry.respond(`${SCOPE}taken`, SCOPE);

    for (const { drop } of scheduled) drop();
    expect(registry.pendingIds()).toEqual([]);
    expect(registry.respond(`${SCOPE}late`, SCOPE)).toBeUndefined();
    // The writer learns of the cancel through its port; a write after it fails.
    await expect.poll(() => unclaimed.cancelled()).toBe(1);
    await expect(unclaimed.writer.flush().then(() => unclaimed.writer.end())).rejects.toThrow();
    // The fetched one is not touched by its (late) drop.
    fetched.writer.queue(new Uint8Array([9, 9, 9]));
    await fetched.writer.end();
    expect([...new Uint8Array(await response!.arrayBuffer())]).toEqual([9, 9, 9]);
    expect(fetched.cancelled()).toBe(0);
  });

  it('serves the worker events: install/activate take over at once, fetch answers known ids only', async () => {
    const listeners = new Map<string, (event: never) => void>();
    const calls: string[] = [];
    const scope = {
      skipWaiting: async () => void calls.push('skipWaiting'),
      clients: { claim: async () => void calls.push('claim') },
      registration: { scope: SCOPE },
      addEventListener: (type: string, listener: (event: never) => void) => void listeners.set(type, listener),
    } as DownloadWorkerScope;
    serveDownloadWorker(scope, createDownloadRegistry({ schedule: () => undefined }));

    const waited: Promise<unknown>[] = [];
    const extendable = { waitUntil: (promise: Promise<unknown>) => void waited.push(promise) } as never;
    listeners.get('install')!(extendable);
    listeners.get('activate')!(extendable);
    await Promise.all(waited);
    expect(calls).toEqual(['skipWaiting', 'claim']);

    const { writer, port } = plaintextPort();
    const reply = replyPort();
    listeners.get('message')!({ data: request('abc', 'x.bin', 2, port), ports: [reply.port] } as never);
    expect(await reply.answer).toEqual({ type: 'ready' });

    const answered: Response[] = [];
    const fetchEvent = (url: string) => ({ request: new Request(url), respondWith: (r: Response) => void answered.push(r) }) as never;
    listeners.get('fetch')!(fetchEvent(`${SCOPE}nope`));
    expect(answered).toHaveLength(0);
    listeners.get('fetch')!(fetchEvent(`${SCOPE}abc`));
    expect(answered).toHaveLength(1);
    writer.queue(new Uint8Array([7, 8]));
    await writer.end();
    expect([...new Uint8Array(await answered[0]!.arrayBuffer())]).toEqual([7, 8]);
  });
});
