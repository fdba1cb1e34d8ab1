// The crypto Worker's download pipeline (CryptoApi.decryptDownload, shared/crypto/plaintext-port.ts) in Node, direct and
// through the Worker proxy, against a real HTTP server; the browser path is in tests/e2e/delivery-e2e.spec.ts.
import { startCiphertextServer, type CiphertextServer } from '@tests/support/ciphertext-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plaintextPortStream, PORT_WINDOW_BYTES, type PlaintextPortMessage } from '@shared/crypto/plaintext-port';
import { CryptoService, type CryptoApi, type DownloadControlMessage } from '@shared/crypto/service';
import { bytesToStream, collectStream } from '@shared/crypto/stream-encoder';
import { proxiedService } from '@shared/crypto/test-helpers/proxied-service';

/** The ciphertext the real HTTP server answers (when the cookie is right, else 403). */
let body: Uint8Array = new Uint8Array(0);
let server: CiphertextServer;
let base = '';
beforeAll(async () => {
  server = await startCiphertextServer(() => body);
  base = server.base;
});
afterAll(() => server.close());

const headers = { cookie: 'session=ok' };

for (const [name, make] of [
  ['direct (Node)', () => new CryptoService()],
  ['through the Worker proxy', proxiedService],
] as const) {
  describe(`decryptDownload ${name}`, { timeout: 60_000 }, () => {
    async function encrypted(api: CryptoApi, plaintext: Uint8Array, recordSize?: number) {
      const key = await api.generateFileKey();
      const { ciphertext } = await api.encryptStream({ fileKey: key.handle, plaintext: bytesToStream(plaintext), ...(recordSize ? { recordSize } : {}) });
      const bytes = await collectStream(ciphertext);
      const { headerSha256 } = await api.headerSha256({ header: bytes.slice(0, 49) });
      return { key: key.handle, bytes, headerSha256 };
    }

    it('fetches, decrypts and writes the exact plaintext into the port, reporting progress', async () => {
      const api = make();
      // 40 records of 64 KiB + a short one: more than the port's window is never in flight at once.
      const plaintext = new Uint8Array(40 * 65_536 + 123).map((_, i) => (i * 7) % 253);
      const { key, bytes, headerSha256 } = await encrypted(api, plaintext, 65_536);
      body = bytes;
      const data = new MessageChannel();
      const control = new MessageChannel();
      // Progress travels on its own port, so the last report may arrive after the call's answer.
      let lastProgress = -1;
      const allFetched = new Promise<void>((resolve) => {
        control.port1.onmessage = (event: MessageEvent<DownloadControlMessage>) => {
          if (event.data.type !== 'progress') return;
          expect(event.data.bytes).toBeGreaterThanOrEqual(lastProgress);
          lastProgress = event.data.bytes;
          if (event.data.bytes === bytes.length && event.data.totalBytes === bytes.length) resolve();
        };
      });
      const reading = collectStream(plaintextPortStream(data.port2));
      const result = await api.decryptDownload({ fileKey: key, url: `${base}/file`, headers, plaintextLength: plaintext.length, expectedHeaderSha256: headerSha256, sink: data.port1, control: control.port2 });
      const back = await reading;
      await allFetched;
      control.port1.close();
      expect(result.bytes).toBe(plaintext.length);
      expect(back.length).toBe(plaintext.length);
      expect(Buffer.from(back).equals(Buffer.from(plaintext))).toBe(true);
    });

    it('a corrupted record rejects with its code and errors the reader', async () => {
      const api = make();
      const plaintext = new Uint8Array(300_000).fill(9);
      const { key, bytes, headerSha256 } = await encrypted(api, plaintext, 65_536);
      bytes[49 + 65_552 + 10]! ^= 1;
      body = bytes;
      const data = new MessageChannel();
      const reading = collectStream(plaintextPortStream(data.port2)).catch((error: unknown) => error);
      await expect(api.decryptDownload({ fileKey: key, url: `${base}/file`, headers, plaintextLength: plaintext.length, expectedHeaderSha256: headerSha256, sink: data.port1 })).rejects.toMatchObject({
        code: 'stream-record-corrupted',
      });
      expect(await reading).toBeInstanceOf(Error);
    });

    it('an HTTP refusal is a download failure, not a decryption failure', async () => {
      const api = make();
      const { key, headerSha256 } = await encrypted(api, new Uint8Array(10));
      const data = new MessageChannel();
      const reading = collectStream(plaintextPortStream(data.port2)).catch((error: unknown) => error);
      await expect(api.decryptDownload({ fileKey: key, url: `${base}/file`, plaintextLength: 10, expectedHeaderSha256: headerSha256, sink: data.port1 })).rejects.toMatchObject({
        code: 'download-failed',
        message: 'The download failed (403)',
      });
      expect(await reading).toBeInstanceOf(Error);
    });

    it('the reader cancelling stops the download (DownloadCancelledError)', async () => {
      const api = make();
      const plaintext = new Uint8Array(64 * 65_536).fill(1);
      const { key, bytes, headerSha256 } = await encrypted(api, plaintext, 65_536);
      body = bytes;
      const data = new MessageChannel();
      const reader = plaintextPortStream(data.port2, 65_536).getReader();
      const running = api.decryptDownload({ fileKey: key, url: `${base}/file`, headers, plaintextLength: plaintext.length, expectedHeaderSha256: headerSha256, sink: data.port1 });
      await reader.read();
      await reader.cancel();
      await expect(running).rejects.toMatchObject({ code: 'download-cancelled' });
    });

    it('a cancel on the control port stops the download', async () => {
      const api = make();
      // More than the port's window, so the unread writer must wait.
      const plaintext = new Uint8Array(24 * 1024 * 1024).fill(2);
      const { key, bytes, headerSha256 } = await encrypted(api, plaintext);
      body = bytes;
      const data = new MessageChannel();
      const control = new MessageChannel();
      // Nobody reads: the writer stops at its window, then the cancel arrives.
      const running = api.decryptDownload({ fileKey: key, url: `${base}/file`, headers, plaintextLength: plaintext.length, expectedHeaderSha256: headerSha256, sink: data.port1, control: control.port2 });
      // Cancel once a full window has arrived unread: the writer is then waiting for acks, the case
      // that must not hang (a fixed delay would race the writer on a busy machine).
      let arrived = 0;
      data.port2.onmessage = (event: MessageEvent<PlaintextPortMessage>) => {
        if (event.data?.type !== 'chunks') return;
        const before = arrived;
        for (const chunk of event.data.chunks) arrived += chunk.byteLength;
        if (before < PORT_WINDOW_BYTES && arrived >= PORT_WINDOW_BYTES) control.port1.postMessage({ type: 'cancel' } satisfies DownloadControlMessage);
      };
      await expect(running).rejects.toMatchObject({ code: 'download-cancelled' });
      control.port1.close();
      data.port2.close();
    });
  });
}
