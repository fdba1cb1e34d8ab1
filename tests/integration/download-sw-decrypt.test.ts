// The download service worker decrypting a level-3/4 or E2E room download itself
// (download-sw-logic.ts `decrypt`, shared/crypto/download-decrypt.ts), in Node against a real HTTP
// server: the key the crypto service hands out crosses a real MessagePort, the response body is the
// plaintext, and every failure errors that body (so the browser's download fails) and is reported.
import { startCiphertextServer, type CiphertextServer } from '@tests/support/ciphertext-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '@shared/crypto/bytes';
import { CryptoService } from '@shared/crypto/service';
import { createDownloadRegistry, type DecryptReplyMessage, type DecryptRequestMessage } from '@web/lib/download-sw-logic';

const SCOPE = 'https://kuvert.test/webjars/download/';
const RECORD = 65_536;

/** A real HTTP server: /file answers `body` in pieces; /cut sends half of it and drops the connection. */
let body: Uint8Array = new Uint8Array(0);
let server: CiphertextServer;
let base = '';
beforeAll(async () => {
  server = await startCiphertextServer(() => body);
  base = server.base;
});
afterAll(() => server.close());

const opened: MessagePort[] = [];
afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

const pattern = (length: number): Uint8Array<ArrayBuffer> => new Uint8Array(length).map((_, i) => (i * 7 + (i >> 12)) % 251);

/** Byte equality (Vitest's deep equality walks a megabyte element by element for seconds). */
function expectBytes(actual: ArrayBuffer, expected: Uint8Array): void {
  expect(actual.byteLength).toBe(expected.byteLength);
  expect(Buffer.from(actual).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))).toBe(true);
}

/** Posts `value` through a real MessagePort (as the page posts to the worker) and gives back the clone. */
async function cloned<T>(value: T): Promise<T> {
  const channel = new MessageChannel();
  opened.push(channel.port1, channel.port2);
  const received = new Promise<T>((resolve) => (channel.port2.onmessage = (event) => resolve(event.data as T)));
  channel.port1.postMessage(value);
  return received;
}

/** The page's reply port: every message the worker sends, and the outcome (done or failed). */
function replyPort() {
  const channel = new MessageChannel();
  opened.push(channel.port1, channel.port2);
  const messages: unknown[] = [];
  const outcome = new Promise<DecryptReplyMessage>((resolve) => {
    channel.port1.onmessage = (event) => {
      messages.push(event.data);
      const type = (event.data as { type: string }).type;
      if (type === 'done' || type === 'failed') resolve(event.data as DecryptReplyMessage);
    };
  });
  return { page: channel.port1, port: channel.port2, messages, outcome };
}

/** A delivery file as the sender's browser makes it (derived header, records of 64 KiB) and its service-worker request. */
async function deliveryFile(plaintext: Uint8Array<ArrayBuffer>, path = '/file') {
  const service = new CryptoService();
  const { handle } = await service.generateFileKey();
  const upload = await service.openUpload({ fileKey: handle, recordSize: RECORD, source: new Blob([plaintext]) });
  const { ciphertext } = await service.sealUploadPart({ upload: upload.upload, start: 0, end: upload.size });
  const key = await cloned(await service.serviceWorkerDownloadKey({ fileKey: handle }));
  const request: DecryptRequestMessage = {
    type: 'decrypt', id: crypto.randomUUID(), name: 'Bericht.pdf', url: `${base}${path}`, headers: { cookie: 'session=ok' },
    key, plaintextLength: plaintext.length, expectedHeaderSha256: upload.headerSha256,
  };
  return { ciphertext, request };
}

/** Announces and fetches one download: the response (as the frame gets it) and the page's reply port. */
async function download(request: DecryptRequestMessage) {
  const registry = createDownloadRegistry({ schedule: () => undefined });
  const reply = replyPort();
  const ready = new Promise<unknown>((resolve) => {
    const listener = reply.page.onmessage;
    reply.page.onmessage = (event) => {
      listener?.call(reply.page, event);
      if ((event.data as { type: string }).type === 'ready') resolve(event.data);
    };
  });
  expect(registry.announce(request, reply.port)).toBe(true);
  await ready;
  const response = registry.respond(`${SCOPE}${request.id}`, SCOPE);
  expect(response).toBeDefined();
  return { response: response!, reply, registry };
}

describe('download service worker: decrypting downloads itself', { timeout: 60_000 }, () => {
  it('gets only a non-extractable key for the one file, even after postMessage', async () => {
    const { request } = await deliveryFile(pattern(100));
    expect(request.key.key).toBeInstanceOf(CryptoKey);
    expect(request.key.key.extractable).toBe(false);
    expect(request.key.key.usages).toEqual(['deriveBits']);
    await expect(crypto.subtle.exportKey('raw', request.key.key)).rejects.toThrow();
  });

  it('hands out file keys only: a private key or a room key is refused, and one file\'s key does not open another file', async () => {
    const service = new CryptoService();
    const { keys } = await service.setupSecuPass({ userId: 'sw-key-owner', passphrase: 'sw key owner passphrase' });
    const room = await service.generateRoomKey();
    for (const handle of [keys.encryption.handle, keys.signing.handle, room.handle]) {
      await expect(service.serviceWorkerDownloadKey({ fileKey: handle })).rejects.toMatchObject({ code: 'key-handle-kind' });
    }
    await expect(service.serviceWorkerDownloadKey({ fileKey: 'no-such-handle' })).rejects.toMatchObject({ code: 'key-handle-unknown' });

    const first = await deliveryFile(pattern(3 * RECORD));
    const second = await deliveryFile(pattern(2 * RECORD + 9));
    body = first.ciphertext;
    // The second file's key (and its own signed size) against the first file's ciphertext.
    const crossed = await download({ ...second.request, expectedHeaderSha256: first.request.expectedHeaderSha256, plaintextLength: 3 * RECORD });
    await expect(crossed.response.arrayBuffer()).rejects.toMatchObject({ code: 'stream-record-corrupted' });
    expect(await crossed.reply.outcome).toMatchObject({ type: 'failed', kind: 'fileDecryption' });
  });

  it('fetches, decrypts and answers the exact plaintext, reporting progress and done', async () => {
    const plaintext = pattern(20 * RECORD + 123);
    const { ciphertext, request } = await deliveryFile(plaintext);
    body = ciphertext;
    const { response, reply } = await download(request);
    expect(response.headers.get('content-length')).toBe(String(plaintext.length));
    expect(response.headers.get('content-disposition')).toContain('attachment; filename="Bericht.pdf"');
    expectBytes(await response.arrayBuffer(), plaintext);
    expect(await reply.outcome).toEqual({ type: 'done' });
    const progress = reply.messages.filter((m) => (m as { type: string }).type === 'progress') as { bytes: number; totalBytes: number }[];
    expect(progress.at(-1)).toEqual({ type: 'progress', bytes: ciphertext.length, totalBytes: ciphertext.length });
  });

  it('a tampered record errors the body and reports fileDecryption: no complete-looking file', async () => {
    const plaintext = pattern(20 * RECORD);
    const { ciphertext, request } = await deliveryFile(plaintext);
    body = ciphertext.slice();
    const at = 49 + 10 * (RECORD + 16) + 5;
    body[at] = ciphertext[at]! ^ 1;
    const { response, reply } = await download(request);
    await expect(response.arrayBuffer()).rejects.toMatchObject({ code: 'stream-record-corrupted' });
    expect(await reply.outcome).toMatchObject({ type: 'failed', kind: 'fileDecryption' });
  });

  it('a missing final record, a swapped header and a wrong size each fail the same way', async () => {
    const plaintext = pattern(6 * RECORD + 10);
    const { ciphertext, request } = await deliveryFile(plaintext);
    const cases: [Uint8Array, DecryptRequestMessage][] = [
      [ciphertext.subarray(0, ciphertext.length - 26), request],
      [ciphertext, { ...request, expectedHeaderSha256: toBase64Url(new Uint8Array(32)) }],
      [ciphertext, { ...request, plaintextLength: plaintext.length + 1 }],
    ];
    for (const [bytes, variant] of cases) {
      body = bytes;
      const { response, reply } = await download({ ...variant, id: crypto.randomUUID() });
      await expect(response.arrayBuffer()).rejects.toThrow();
      expect(await reply.outcome).toMatchObject({ type: 'failed', kind: 'fileDecryption' });
    }
  });

  it('a connection dropped mid-download errors the body and reports a download failure (no resume: the content route answers whole files)', async () => {
    const plaintext = pattern(30 * RECORD);
    const { ciphertext, request } = await deliveryFile(plaintext, '/cut');
    body = ciphertext;
    const { response, reply } = await download(request);
    await expect(response.arrayBuffer()).rejects.toThrow();
    expect(await reply.outcome).toMatchObject({ type: 'failed', kind: 'download' });
  });

  it('an HTTP error is a download failure', async () => {
    const { ciphertext, request } = await deliveryFile(pattern(100));
    body = ciphertext;
    const { response, reply } = await download({ ...request, headers: { cookie: 'session=no' } });
    await expect(response.arrayBuffer()).rejects.toMatchObject({ code: 'download-failed' });
    expect(await reply.outcome).toMatchObject({ type: 'failed', kind: 'download' });
  });

  it('the browser cancelling the download, or the page cancelling the transfer, stops it (cancelled)', async () => {
    const plaintext = pattern(200 * RECORD);
    const { ciphertext, request } = await deliveryFile(plaintext);
    body = ciphertext;
    const first = await download(request);
    const reader = first.response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(await first.reply.outcome).toMatchObject({ type: 'failed', kind: 'cancelled' });

    const second = await download({ ...request, id: crypto.randomUUID() });
    const secondReader = second.response.body!.getReader();
    await secondReader.read();
    second.reply.page.postMessage({ type: 'cancel' });
    await expect((async () => { for (;;) if ((await secondReader.read()).done) return; })()).rejects.toMatchObject({ code: 'download-cancelled' });
    expect(await second.reply.outcome).toMatchObject({ type: 'failed', kind: 'cancelled' });
  });

  it('an E2E room file: the header its key derives and the signed commitment are checked', async () => {
    const service = new CryptoService();
    const room = await service.generateRoomKey();
    const file = { roomId: 'room-1', fileId: 'f1', version: 1 };
    const { handle } = await service.generateFileKey();
    const plaintext = pattern(5 * RECORD + 7);
    const upload = await service.openUpload({ fileKey: handle, recordSize: RECORD, source: new Blob([plaintext]), commitContent: true });
    const { ciphertext } = await service.sealUploadPart({ upload: upload.upload, start: 0, end: upload.size });
    const { contentCommitment } = await service.uploadContentCommitment({ upload: upload.upload });
    const { wrapped } = await service.wrapRoomFileKey({ roomKey: room.handle, fileKey: handle, file });
    const reader = (await service.unwrapRoomFileKey({ roomKey: room.handle, file, wrapped })).handle;
    // A room file's key reads whole only against its signed commitment (or a format-1 hash).
    await expect(service.serviceWorkerDownloadKey({ fileKey: reader })).rejects.toMatchObject({ code: 'key-handle-kind' });
    const good = await cloned(await service.serviceWorkerDownloadKey({ fileKey: reader, expectedContentCommitment: contentCommitment }));
    expect(good.headerDerivedFromKey).toBe(true);
    body = ciphertext;
    const request: DecryptRequestMessage = {
      type: 'decrypt', id: crypto.randomUUID(), name: 'x.bin', url: `${base}/file`, headers: { cookie: 'session=ok' },
      key: good, plaintextLength: plaintext.length, expectedHeaderSha256: upload.headerSha256,
    };
    const ok = await download(request);
    expectBytes(await ok.response.arrayBuffer(), plaintext);
    expect(await ok.reply.outcome).toEqual({ type: 'done' });

    const otherCommitment = toBase64Url(fromBase64Url(contentCommitment).map((byte, i) => (i === 0 ? byte ^ 1 : byte)));
    const bad = await download({ ...request, id: crypto.randomUUID(), key: { ...good, expectedContentCommitment: otherCommitment } });
    await expect(bad.response.arrayBuffer()).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    expect(await bad.reply.outcome).toMatchObject({ type: 'failed', kind: 'fileDecryption' });
  });

  it('a decrypt download nobody fetches is dropped and reported', async () => {
    let drop: (() => void) | undefined;
    const registry = createDownloadRegistry({ schedule: (d) => void (drop = d) });
    const { request } = await deliveryFile(pattern(10));
    const reply = replyPort();
    const before = server.requests();
    expect(registry.announce(request, reply.port)).toBe(true);
    drop!();
    expect(await reply.outcome).toMatchObject({ type: 'failed', kind: 'download' });
    expect(registry.respond(`${SCOPE}${request.id}`, SCOPE)).toBeUndefined();
    expect(server.requests()).toBe(before);
    expect(registry.announce({ ...request, url: 7 }, reply.port)).toBe(false);
  });
});
