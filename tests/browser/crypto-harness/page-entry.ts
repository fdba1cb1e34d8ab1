// Page side of the Chromium harness: exposes checks and benchmarks on `window.kuvertCryptoHarness`.
// The same shared/crypto code and the same fixture files as the Node tests.
import kat from '../../fixtures/crypto/kat.json';
import vectors from '../../fixtures/crypto/published-vectors.json';
import roomKat from '../../fixtures/crypto/room-kat.json';
import { checkRoomKnownAnswers, type RoomKnownAnswers } from '@shared/crypto/test-helpers/room-known-answers';
import { createCryptoProxy } from '@shared/crypto/proxy';
import { CryptoError } from '@shared/crypto/errors';
import { SECUPASS_V3_PARAMETERS, deriveV3KeyEncryptionKey } from '@shared/crypto/secupass';
import { DEFAULT_RECORD_SIZE, STREAM_HEADER_BYTES, ciphertextLength, recordCount, recordNonce } from '@shared/crypto/stream-format';
import { RECORDS_IN_FLIGHT, contextFromHeader } from '@shared/crypto/stream-records';
import { StreamDecoder, createDecryptStream } from '@shared/crypto/stream-decoder';
import { StreamEncoder, bytesToStream, collectStream, createEncryptStream, encryptBytes } from '@shared/crypto/stream-encoder';
import { sha256 } from '@shared/crypto/subtle';
import { contentCommitment } from '@shared/crypto/content-commitment';
import { createSHA256 } from 'hash-wasm';
import { checkKnownAnswers, type KnownAnswers } from '@shared/crypto/test-helpers/known-answers';
import { checkPublishedVectors } from '@shared/crypto/test-helpers/published-vectors';
import { MUTATIONS, boundarySizes, expectedErrorCode, mutate } from '@shared/crypto/test-helpers/stream-mutations';

const fileKey = new Uint8Array(32).map((_, i) => 255 - i);

function pattern(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 7 + 3) & 0xff;
  return out;
}

async function publishedVectors() {
  return checkPublishedVectors(vectors as Parameters<typeof checkPublishedVectors>[0]);
}

async function knownAnswers() {
  return checkKnownAnswers(kat as unknown as KnownAnswers);
}

/** Every mutation at every boundary size; returns the code each produced next to the expected one. */
async function mutations(recordSize: number, n: number) {
  const results: { size: number; mutation: string; expected: string; actual: string }[] = [];
  for (const size of boundarySizes(recordSize, n)) {
    const ciphertext = await encryptBytes(pattern(size), { fileKey, recordSize });
    const expectedHeaderHash = await sha256(ciphertext.subarray(0, STREAM_HEADER_BYTES));
    for (const mutation of MUTATIONS) {
      const mutated = mutate(ciphertext, size, recordSize, mutation);
      if (!mutated) continue;
      let actual = 'accepted';
      try {
        await collectStream(bytesToStream(mutated, 8192).pipeThrough(createDecryptStream({ fileKey, plaintextLength: size, expectedHeaderHash })));
      } catch (error) {
        actual = error instanceof CryptoError ? error.code : `other: ${String(error)}`;
      }
      results.push({ size, mutation, expected: expectedErrorCode(mutation, recordCount(size, recordSize)), actual });
    }
  }
  return results;
}

function newWorker(): Worker {
  return new Worker('/worker.js', { type: 'module' });
}

/** A full exchange through ONE dedicated Worker; reports what the page could see. */
async function workerScenario() {
  const api = createCryptoProxy(newWorker());
  const alice = await api.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
  const bob = await api.setupSecuPass({ userId: 'bob', passphrase: 'bob passphrase' });
  const fileKeyHandle = await api.generateFileKey();
  const binding = { contextId: 'delivery-1', fileId: 'file-1', recipientKeyId: bob.keys.encryption.keyId };
  const wrapped = await api.wrapFileKey({ fileKey: fileKeyHandle.handle, recipientPublicKey: bob.keys.encryption.publicKey, binding });
  const plaintext = pattern(DEFAULT_RECORD_SIZE * 2 + 5);
  const { ciphertext } = await api.encryptStream({ fileKey: fileKeyHandle.handle, plaintext: bytesToStream(plaintext) });
  const ciphertextBytes = await collectStream(ciphertext);
  const { headerSha256 } = await api.headerSha256({ header: ciphertextBytes.slice(0, STREAM_HEADER_BYTES) });
  const signed = await api.signManifest({
    signingKey: alice.keys.signing.handle,
    manifest: { version: 1, contextId: 'delivery-1', senderUserId: 'alice', signerKeyId: alice.keys.signing.keyId, createdAt: '2026-01-01T00:00:00Z', files: [{ fileId: 'file-1', name: 'a', size: plaintext.length, headerSha256 }] },
  });
  const manifest = await api.verifyManifest({ signerPublicKey: alice.keys.signing.publicKey, signed });
  const opened = await api.unwrapFileKey({ privateKey: bob.keys.encryption.handle, wrapped, binding });
  const { plaintext: decrypted } = await api.decryptStream({
    fileKey: opened.handle,
    ciphertext: bytesToStream(ciphertextBytes),
    plaintextLength: manifest.files[0]?.size ?? 0,
    expectedHeaderSha256: headerSha256,
  });
  const back = await collectStream(decrypted);
  const tampered = ciphertextBytes.slice();
  tampered[STREAM_HEADER_BYTES + 10] = (tampered[STREAM_HEADER_BYTES + 10] ?? 0) ^ 1;
  let tamperedCode = 'accepted';
  try {
    const { plaintext: bad } = await api.decryptStream({ fileKey: opened.handle, ciphertext: bytesToStream(tampered) });
    await collectStream(bad);
  } catch (error) {
    tamperedCode = error instanceof CryptoError ? error.code : String(error);
  }
  let wrongPassphraseCode = 'accepted';
  try {
    await api.unlockSecuPass({ userId: 'alice', blob: alice.blob, passphrase: 'nope' });
  } catch (error) {
    wrongPassphraseCode = error instanceof CryptoError ? error.code : String(error);
  }
  await api.lock();
  let afterLockCode = 'accepted';
  try {
    await api.signManifest({ signingKey: alice.keys.signing.handle, manifest: signed.manifest });
  } catch (error) {
    afterLockCode = error instanceof CryptoError ? error.code : String(error);
  }
  return {
    roundTrip: back.length === plaintext.length && back.every((byte, i) => byte === plaintext[i]),
    visibleToPage: JSON.stringify({ alice, bob, wrapped, signed, fileKeyHandle, opened }),
    handleShape: typeof alice.keys.encryption.handle,
    tamperedCode,
    wrongPassphraseCode,
    afterLockCode,
  };
}

/** Non-extractability as WebCrypto enforces it, checked in this browser (not only in Node). */
async function nonExtractable() {
  const { setupSecuPass, unlockSecuPass } = await import('@shared/crypto/secupass');
  const { blob } = await setupSecuPass({ userId: 'u', passphrase: 'p' });
  const { keys } = await unlockSecuPass({ userId: 'u', blob, passphrase: 'p' });
  const results: { usage: string; extractable: boolean; exportRefused: boolean }[] = [];
  for (const key of keys) {
    let exportRefused = false;
    try {
      await crypto.subtle.exportKey('pkcs8', key.privateKey);
    } catch (_error) {
      exportRefused = true;
    }
    results.push({ usage: key.usage, extractable: key.privateKey.extractable, exportRefused });
  }
  return results;
}

// ---- benchmarks (tests/bench/crypto.ts drives these) ----

const MiB = 1024 * 1024;

function chunkSource(total: number, chunkSize: number, fill: Uint8Array): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const size = Math.min(chunkSize, total - sent);
      // The same bytes every time, not fresh copies: allocating 512 KiB buffers costs about as much as
      // encrypting them, and the raw baseline does not pay it either. (The encoder copies what it keeps.)
      controller.enqueue(size === fill.length ? fill : fill.subarray(0, size));
      sent += size;
    },
  });
}

async function drain(stream: ReadableStream<Uint8Array>, onChunk?: (chunk: Uint8Array) => void): Promise<number> {
  const reader = stream.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.length;
    onChunk?.(value);
  }
}

/** What one throughput run measures: raw WebCrypto or the stream coder, encrypting or decrypting. */
export type ThroughputRun = 'raw-encrypt' | 'stream-encrypt' | 'coder-encrypt' | 'raw-decrypt' | 'stream-decrypt' | 'coder-decrypt';

/** The bytes of the throughput runs, made once per size, untimed: one plaintext record and the stream's records. */
let throughputInput: { total: number; fill: Uint8Array<ArrayBuffer>; records: Uint8Array[] } | null = null;

async function prepareThroughput(totalMiB: number) {
  const total = totalMiB * MiB;
  const fill = pattern(DEFAULT_RECORD_SIZE);
  // Chunk 0 is the header, then one chunk per record: what the decrypt runs read, raw and streamed.
  const records: Uint8Array[] = [];
  await drain(chunkSource(total, DEFAULT_RECORD_SIZE, fill).pipeThrough(createEncryptStream({ fileKey })), (chunk) => records.push(chunk));
  throughputInput = { total, fill, records };
  return { records: records.length, inFlight: RECORDS_IN_FLIGHT };
}

/**
 * Runs `calls` (one per record, in order) with up to `inFlight` of them pending at once — the raw
 * baselines' loop, with the stream coders' concurrency (RECORDS_IN_FLIGHT) so both sides overlap
 * alike; each output is dropped once it resolves, as the timed stream runs drop theirs.
 */
async function overlapped(count: number, inFlight: number, call: (i: number) => Promise<ArrayBuffer>): Promise<void> {
  const pending: Promise<ArrayBuffer>[] = [];
  for (let i = 0; i < count; i++) {
    pending.push(call(i));
    if (pending.length >= inFlight) await pending.shift();
  }
  await Promise.all(pending);
}

/**
 * Raw WebCrypto encrypt baseline: AES-256-GCM over the same 512 KiB of plaintext per record, with
 * the stream's nonces and associated data (a 32-byte header hash), nothing else.
 */
async function rawEncrypt(total: number, fill: Uint8Array<ArrayBuffer>, inFlight: number): Promise<void> {
  const context = await contextFromHeader(fileKey, throughputInput?.records[0] as Uint8Array);
  const count = total / DEFAULT_RECORD_SIZE;
  await overlapped(count, inFlight, (i) =>
    crypto.subtle.encrypt({ name: 'AES-GCM', iv: recordNonce(context.header.noncePrefix, i, i === count - 1), additionalData: context.headerHash }, context.contentKey, fill),
  );
}

/**
 * Raw WebCrypto decrypt baseline: the stream's own records (chunk 0 is the header) opened with plain
 * crypto.subtle.decrypt — the calls the decoder makes, without the decoder: its key, nonces and
 * associated data, the same distinct ciphertext bytes read from memory.
 */
async function rawDecrypt(records: Uint8Array[], inFlight: number): Promise<void> {
  const context = await contextFromHeader(fileKey, records[0] as Uint8Array);
  const last = records.length - 1;
  await overlapped(last, inFlight, (i) =>
    crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: recordNonce(context.header.noncePrefix, i, i + 1 === last), additionalData: context.headerHash },
      context.contentKey,
      records[i + 1] as Uint8Array<ArrayBuffer>,
    ),
  );
}

/** One timed run over the prepared bytes (prepareThroughput first); wall ms. The bench reads the CPU around it. */
async function throughputRun(run: ThroughputRun, inFlight = RECORDS_IN_FLIGHT) {
  const input = throughputInput;
  if (!input) throw new Error('prepareThroughput first');
  const { total, fill, records } = input;
  const start = performance.now();
  if (run === 'raw-encrypt') await rawEncrypt(total, fill, inFlight);
  else if (run === 'raw-decrypt') await rawDecrypt(records, inFlight);
  else if (run === 'coder-encrypt') {
    // StreamEncoder fed the same chunks directly: the coder's own work without the streams around it.
    const encoder = new StreamEncoder({ fileKey });
    let bytes = 0;
    const emit = (chunk: Uint8Array) => {
      bytes += chunk.length;
    };
    await encoder.start(emit);
    for (let done = 0; done < total; done += fill.length) await encoder.push(fill, emit);
    await encoder.finish(emit);
    if (bytes !== ciphertextLength(total, DEFAULT_RECORD_SIZE)) throw new Error('encrypt lost bytes');
  } else if (run === 'coder-decrypt') {
    const decoder = new StreamDecoder({ fileKey, plaintextLength: total });
    let bytes = 0;
    const emit = (chunk: Uint8Array) => {
      bytes += chunk.length;
    };
    for (const record of records) await decoder.push(record, emit);
    await decoder.finish(emit);
    if (bytes !== total) throw new Error('decrypt lost bytes');
  } else if (run === 'stream-encrypt') {
    const bytes = await drain(chunkSource(total, DEFAULT_RECORD_SIZE, fill).pipeThrough(createEncryptStream({ fileKey })));
    if (bytes !== ciphertextLength(total, DEFAULT_RECORD_SIZE)) throw new Error('encrypt lost bytes');
  } else {
    let index = 0;
    const replay = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = records[index++];
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const bytes = await drain(replay.pipeThrough(createDecryptStream({ fileKey, plaintextLength: total })));
    if (bytes !== total) throw new Error('decrypt lost bytes');
  }
  return { ms: performance.now() - start };
}

async function unlockTime(repetitions = 3) {
  const kdf = { name: 'argon2id' as const, ...SECUPASS_V3_PARAMETERS, salt: 'AAAAAAAAAAAAAAAAAAAAAA' };
  const times: number[] = [];
  for (let r = 0; r < repetitions; r++) {
    const start = performance.now();
    await deriveV3KeyEncryptionKey('a passphrase of ordinary length', kdf);
    times.push(performance.now() - start);
  }
  return { medianMs: times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0, allMs: times };
}

/** 1 GiB generated → encrypt → decrypt → counted, never held; the heap is sampled by the bench via CDP too. */
async function streamGiB(totalMiB = 1024) {
  const total = totalMiB * MiB;
  const fill = pattern(DEFAULT_RECORD_SIZE);
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  const before = memory?.usedJSHeapSize ?? 0;
  let peak = before;
  const start = performance.now();
  const bytes = await drain(
    chunkSource(total, 64 * 1024, fill).pipeThrough(createEncryptStream({ fileKey })).pipeThrough(createDecryptStream({ fileKey, plaintextLength: total })),
    () => {
      peak = Math.max(peak, memory?.usedJSHeapSize ?? 0);
    },
  );
  return { bytes, ms: performance.now() - start, heapBefore: before, heapPeak: peak };
}

async function roomKnownAnswers() {
  return checkRoomKnownAnswers(roomKat as unknown as RoomKnownAnswers);
}

/** Ciphertext records (and both signed content values) for `decryptChecked`, made once, untimed. */
let contentCheckInput: { records: Uint8Array[]; total: number; sha256: Uint8Array; commitment: Uint8Array } | null = null;

/** Encrypts `totalMiB` (whole 512 KiB records) and computes the format-1 hash and the format-2 commitment of it. */
async function prepareContentCheck(totalMiB: number) {
  const total = totalMiB * MiB;
  const fill = pattern(DEFAULT_RECORD_SIZE);
  const records: Uint8Array[] = [];
  await drain(chunkSource(total, DEFAULT_RECORD_SIZE, fill).pipeThrough(createEncryptStream({ fileKey })), (chunk) => records.push(chunk.slice()));
  const first = records[0]!;
  if (first.length < STREAM_HEADER_BYTES) throw new Error('the first chunk holds the header');
  const hasher = await createSHA256();
  for (let done = 0; done < total; done += fill.length) hasher.update(fill);
  const recordHash = await sha256(fill);
  const commitment = await contentCommitment(await sha256(first.subarray(0, STREAM_HEADER_BYTES)), Array.from({ length: total / fill.length }, () => recordHash));
  contentCheckInput = { records, total, sha256: hasher.digest('binary'), commitment };
  return { records: records.length };
}

/** Decrypts the prepared records with no content check, the format-1 whole-plaintext hash, or the format-2 commitment; wall ms. */
async function decryptChecked(check: 'none' | 'sha256' | 'commitment') {
  const input = contentCheckInput;
  if (!input) throw new Error('prepareContentCheck first');
  let index = 0;
  const replay = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = input.records[index++];
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  const expected = check === 'sha256' ? { expectedPlaintextSha256: input.sha256 } : check === 'commitment' ? { expectedContentCommitment: input.commitment } : {};
  const start = performance.now();
  const bytes = await drain(replay.pipeThrough(createDecryptStream({ fileKey, plaintextLength: input.total, ...expected })));
  if (bytes !== input.total) throw new Error('decrypt lost bytes');
  return { ms: performance.now() - start };
}

const harness = { publishedVectors, knownAnswers, roomKnownAnswers, mutations, workerScenario, nonExtractable, prepareThroughput, throughputRun, unlockTime, streamGiB, prepareContentCheck, decryptChecked };
(window as unknown as { kuvertCryptoHarness: typeof harness }).kuvertCryptoHarness = harness;
export type CryptoHarness = typeof harness;

