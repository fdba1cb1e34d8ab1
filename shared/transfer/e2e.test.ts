import { createApiClient } from '@shared/api/client';
import { createMemoryStorage } from '@shared/api/storage-adapter';
import { e2ePartLayout, partBounds, type PartsResponse } from '@shared/contract/deliveries';
import { bytesEqual, concatBytes } from '@shared/crypto/bytes';
import { CryptoService, type CryptoApi, type UnlockedKeys } from '@shared/crypto/service';
import { bytesToStream, collectStream } from '@shared/crypto/stream-encoder';
import { ciphertextLength } from '@shared/crypto/stream-format';
import { sha256Hex } from '@shared/crypto/subtle';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  downloadE2eFile,
  E2eDownloadError,
  E2eSendSession,
  MAX_IN_MEMORY_DOWNLOAD_BYTES,
  openE2eFileStream,
  StorageKeyPinStore,
  type E2eDownloadProgress,
  type OpenedE2eDelivery,
} from './e2e';

/**
 * The levels 3/4 client modules with the real crypto (CryptoService, the code the Worker runs).
 * Where the modules talk to the server they take a `fetch`; here it answers with the ciphertext
 * bytes a server would send (the whole path against the real server is in
 * tests/integration/delivery-e2e.test.ts).
 */

const RECORD_SIZE = 256;
const DELIVERY = 'delivery-1';

let crypto: CryptoApi;
let keys: UnlockedKeys;

beforeAll(async () => {
  crypto = new CryptoService();
  ({ keys } = await crypto.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase for the e2e tests' }));
}, 60_000);

function pattern(length: number): Uint8Array {
  return new Uint8Array(length).map((_, i) => (i * 31 + 7) % 251);
}

async function encrypted(plaintext: Uint8Array) {
  const { handle } = await crypto.generateFileKey();
  const { headerSha256 } = await crypto.uploadStreamHeader({ fileKey: handle, recordSize: RECORD_SIZE });
  const { ciphertext } = await crypto.encryptRecordRun({ fileKey: handle, recordSize: RECORD_SIZE, firstRecord: 0, plaintext, final: true });
  return { handle, headerSha256, ciphertext };
}

function delivery(file: { fileKey: string; size: number; headerSha256: string }): OpenedE2eDelivery {
  return {
    deliveryUuid: DELIVERY,
    manifest: { version: 1, contextId: DELIVERY, senderUserId: 'alice', signerKeyId: keys.signing.keyId, createdAt: '2026-01-01T00:00:00Z', files: [] },
    signer: { userUuid: 'alice', email: 'alice@example.org', signedIdentity: false, fingerprint: 'ab', keyId: keys.signing.keyId, keyRetired: false, own: true, verified: false },
    files: [{ fileId: 'file-1', name: 'report.pdf', mimeType: 'application/pdf', ...file }],
    close: async () => undefined,
  };
}

/** Answers every request with these bytes (or this status), counting the requests. */
function serving(body: Uint8Array | null, status = 200) {
  const requests: string[] = [];
  const fetcher = (async (url: string) => {
    requests.push(String(url));
    return new Response(body ? (body.slice() as Uint8Array<ArrayBuffer>) : null, { status, headers: body ? { 'content-length': String(body.length) } : {} });
  }) as typeof fetch;
  return { fetcher, requests };
}

describe('StorageKeyPinStore', () => {
  it('keeps one pin map per owner and reads a damaged entry as no pins', async () => {
    const storage = createMemoryStorage();
    const alice = new StorageKeyPinStore(storage, 'alice-key');
    const bob = new StorageKeyPinStore(storage, 'bob-key');
    await alice.set('carol:encryption', 'fp-1');
    await alice.set('dave:signing', 'fp-2');
    expect(await alice.get('carol:encryption')).toBe('fp-1');
    expect(await alice.get('dave:signing')).toBe('fp-2');
    expect(await bob.get('carol:encryption')).toBeUndefined();
    storage.setItem('kuvert.keyPins.alice-key', '{not json');
    expect(await alice.get('carol:encryption')).toBeUndefined();
    await alice.set('carol:encryption', 'fp-3');
    expect(await alice.get('carol:encryption')).toBe('fp-3');
  });
});

describe('E2E download', () => {
  it('decrypts a file to its bytes, reporting pending, decrypting and success with the bytes received', async () => {
    const plaintext = pattern(3 * RECORD_SIZE + 17);
    const file = await encrypted(plaintext);
    const { fetcher, requests } = serving(file.ciphertext);
    const progress: E2eDownloadProgress[] = [];
    const blob = await downloadE2eFile({
      delivery: delivery({ fileKey: file.handle, size: plaintext.length, headerSha256: file.headerSha256 }),
      fileId: 'file-1',
      crypto,
      url: 'https://kuvert.example/content',
      fetch: fetcher,
      onProgress: (p) => progress.push(p),
    });
    expect(bytesEqual(new Uint8Array(await blob.arrayBuffer()), plaintext)).toBe(true);
    expect(requests).toEqual(['https://kuvert.example/content']);
    expect(progress[0]).toEqual({ state: 'pending', bytes: 0, totalBytes: 0 });
    expect(progress.at(-1)).toEqual({ state: 'success', bytes: file.ciphertext.length, totalBytes: file.ciphertext.length });
    expect(new Set(progress.map((p) => p.state))).toEqual(new Set(['pending', 'decryptingFile', 'success']));
  });

  it('refuses a file the signed manifest does not list, and a failed download, as download failures', async () => {
    const file = await encrypted(pattern(10));
    const opened = delivery({ fileKey: file.handle, size: 10, headerSha256: file.headerSha256 });
    await expect(openE2eFileStream({ delivery: opened, fileId: 'other', crypto, url: 'x', fetch: serving(file.ciphertext).fetcher })).rejects.toMatchObject({
      name: 'E2eDownloadError',
      kind: 'download',
    });
    const states: string[] = [];
    const failed = openE2eFileStream({ delivery: opened, fileId: 'file-1', crypto, url: 'x', fetch: serving(null, 404).fetcher, onProgress: (p) => states.push(p.state) });
    await expect(failed).rejects.toMatchObject({ kind: 'download', message: 'The download failed (404)' });
    expect(states).toEqual(['pending', 'failed']);
  });

  it('names tampered, truncated and swapped-header ciphertext a decryption failure, never bytes', async () => {
    const plaintext = pattern(2 * RECORD_SIZE + 5);
    const file = await encrypted(plaintext);
    const other = await encrypted(plaintext);
    const flipped = file.ciphertext.slice();
    flipped[flipped.length - 20]! ^= 1;
    const cases: [string, Uint8Array, string][] = [
      ['one flipped bit', flipped, file.headerSha256],
      ['the last record cut off', file.ciphertext.slice(0, file.ciphertext.length - RECORD_SIZE / 2), file.headerSha256],
      ['another stream header than the manifest names', file.ciphertext, other.headerSha256],
    ];
    for (const [what, body, headerSha256] of cases) {
      const states: string[] = [];
      const download = downloadE2eFile({
        delivery: delivery({ fileKey: file.handle, size: plaintext.length, headerSha256 }),
        fileId: 'file-1',
        crypto,
        url: 'x',
        fetch: serving(body).fetcher,
        onProgress: (p) => states.push(p.state),
      });
      await expect(download, what).rejects.toBeInstanceOf(E2eDownloadError);
      await expect(download, what).rejects.toMatchObject({ kind: 'fileDecryption' });
      expect(states.at(-1), what).toBe('failed');
      expect(states, what).not.toContain('success');
    }
  });

  it('refuses a file above the in-memory cap before fetching anything', async () => {
    const file = await encrypted(pattern(10));
    const { fetcher, requests } = serving(file.ciphertext);
    const download = downloadE2eFile({ delivery: delivery({ fileKey: file.handle, size: MAX_IN_MEMORY_DOWNLOAD_BYTES + 1, headerSha256: file.headerSha256 }), fileId: 'file-1', crypto, url: 'x', fetch: fetcher });
    await expect(download).rejects.toMatchObject({ kind: 'tooLarge' });
    expect(requests).toEqual([]);
  });
});

describe('E2E send session: files encrypted part by part', () => {
  const source = { name: 'data.bin', blob: new Blob([pattern(20 * RECORD_SIZE + 3) as Uint8Array<ArrayBuffer>]) };
  const session = () => new E2eSendSession(createApiClient({ backendUrl: 'https://kuvert.example' }), { crypto, keys, recordSize: RECORD_SIZE }, undefined);

  async function allParts(upload: Awaited<ReturnType<E2eSendSession['prepareFile']>>['upload']): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    // The server's layout of an E2E delivery file (part 0 also the header), as the engine asks for it.
    const layout = { size: upload.size, ...e2ePartLayout(RECORD_SIZE) };
    for (let index = 0, read = 0; read < upload.size; index++) {
      const { body, size, sha256 } = await upload.readPart({ index, ...partBounds(layout, index) }, new AbortController().signal);
      const bytes = new Uint8Array(await body.arrayBuffer());
      expect([bytes.length, await sha256Hex(bytes)]).toEqual([size, sha256]);
      parts.push(bytes);
      read += bytes.length;
    }
    return concatBytes(...parts);
  }

  it('produces the ciphertext length it announces; a resume with the own key copy gives byte-identical parts', async () => {
    const { handle: fileKey } = await crypto.generateFileKey();
    const binding = { contextId: DELIVERY, fileId: 'file-1', recipientKeyId: keys.encryption.keyId };
    const wrappedKey = await crypto.wrapFileKey({ fileKey, recipientPublicKey: keys.encryption.publicKey, binding });
    const parts = { fileId: 'file-1', partSize: 0, partCount: 3, status: 'uploading', parts: [], ownKey: { recipientKeyId: keys.encryption.keyId, wrappedKey } } as unknown as PartsResponse;

    const first = await session().prepareFile(DELIVERY, source, { fileId: 'file-1', parts });
    const second = await session().prepareFile(DELIVERY, source, { fileId: 'file-1', parts });
    expect([first.resumed, second.resumed]).toEqual([true, true]);
    expect(first.upload).toMatchObject({ size: ciphertextLength(source.blob.size, RECORD_SIZE), encrypted: true, strictResume: true });
    const a = await allParts(first.upload);
    expect(a.length).toBe(first.upload.size);
    expect(bytesEqual(a, await allParts(second.upload))).toBe(true);
    // The parts are the stream of that very key: it decrypts to the source.
    const { plaintext } = await crypto.decryptStream({ fileKey, ciphertext: bytesToStream(a), plaintextLength: source.blob.size });
    expect(bytesEqual(await collectStream(plaintext), new Uint8Array(await source.blob.arrayBuffer()))).toBe(true);
  });

  it('starts over with a fresh key when the own copy does not unwrap (bound to another file) or is missing', async () => {
    const { handle: fileKey } = await crypto.generateFileKey();
    const elsewhere = await crypto.wrapFileKey({ fileKey, recipientPublicKey: keys.encryption.publicKey, binding: { contextId: DELIVERY, fileId: 'file-2', recipientKeyId: keys.encryption.keyId } });
    const wrongBinding = { fileId: 'file-1', ownKey: { recipientKeyId: keys.encryption.keyId, wrappedKey: elsewhere } } as unknown as PartsResponse;
    const noCopy = { fileId: 'file-1' } as unknown as PartsResponse;
    const refused = await session().prepareFile(DELIVERY, source, { fileId: 'file-1', parts: wrongBinding });
    const fresh = await session().prepareFile(DELIVERY, source, { fileId: 'file-1', parts: noCopy });
    expect([refused.resumed, fresh.resumed]).toEqual([false, false]);
    // Fresh keys: different ciphertexts of the same source.
    expect(bytesEqual(await allParts(refused.upload), await allParts(fresh.upload))).toBe(false);
  });
});
