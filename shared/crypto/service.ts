// The handle-based crypto API. In Node it is used directly (createCryptoService); in the browser it
// runs inside ONE dedicated Worker (worker.ts) and the page talks to it through createCryptoProxy.
// Either way callers hold opaque key handles, never key bytes.
import { fromBase64Url, toBase64Url, toHex } from './bytes';
import { CryptoError, DownloadCancelledError, DownloadFailedError, KeyHandleKindError, KeyHandleUnknownError } from './errors';
import { generateFileKey, unwrapFileKey, wrapFileKey, type FileKeyBinding, type WrappedFileKey } from './file-key';
import { fingerprintOf, formatFingerprint, importPublicKey, type UserKeyPair, type UserKeyUsage } from './keys';
import { signManifest, verifyManifest, type Manifest, type SignedManifest } from './manifest';
import { changeSecuPass, setupSecuPass, unlockSecuPass, type Argon2idParameters, type SecuPassBlobV3 } from './secupass';
import { PlaintextPortWriter, PortCancelledError, type PortLike } from './plaintext-port';
import { StreamDecoder, createDecryptStream } from './stream-decoder';
import { createEncryptStream } from './stream-encoder';
import { decryptPlaintextRange } from './stream-random-access';
import { randomBytes, sha256 } from './subtle';

/** An opaque id naming a key inside the service. Worthless outside it. */
export type KeyHandle = string;

export interface PublicKeyInfo {
  handle: KeyHandle;
  keyId: string;
  usage: UserKeyUsage;
  /** SPKI, base64url: what the server stores. */
  publicKey: string;
  /** SHA-256 of the SPKI as lowercase hex (what pins store). */
  fingerprint: string;
  /** The same in 16 groups of 4 uppercase hex digits, for people. */
  fingerprintDisplay: string;
}

/** Messages on decryptDownload's `control` port: progress out, cancel in. */
export type DownloadControlMessage = { type: 'progress'; bytes: number; totalBytes: number } | { type: 'cancel' };

/** Progress goes out at most this often: the page redraws a bar, not once per network chunk. */
const PROGRESS_INTERVAL_MS = 100;

export interface UnlockedKeys {
  encryption: PublicKeyInfo;
  signing: PublicKeyInfo;
}

/** The whole API; every argument and result is structured-cloneable (streams are transferred). */
export interface CryptoApi {
  setupSecuPass(args: { userId: string; passphrase: string; parameters?: Argon2idParameters }): Promise<{ blob: SecuPassBlobV3; keys: UnlockedKeys }>;
  unlockSecuPass(args: { userId: string; blob: unknown; passphrase: string }): Promise<{ keys: UnlockedKeys; upgradedBlob?: SecuPassBlobV3 }>;
  changeSecuPass(args: { userId: string; blob: unknown; currentPassphrase: string; newPassphrase: string }): Promise<{ blob: SecuPassBlobV3; keys: UnlockedKeys }>;
  /** Forgets every handle (logout). */
  lock(): Promise<void>;
  releaseHandle(args: { handle: KeyHandle }): Promise<void>;
  fingerprint(args: { publicKey: string }): Promise<{ keyId: string; fingerprint: string; fingerprintDisplay: string }>;
  generateFileKey(): Promise<{ handle: KeyHandle }>;
  wrapFileKey(args: { fileKey: KeyHandle; recipientPublicKey: string; binding: FileKeyBinding }): Promise<WrappedFileKey>;
  unwrapFileKey(args: { privateKey: KeyHandle; wrapped: WrappedFileKey; binding: FileKeyBinding }): Promise<{ handle: KeyHandle }>;
  signManifest(args: { signingKey: KeyHandle; manifest: Manifest }): Promise<SignedManifest>;
  verifyManifest(args: { signerPublicKey: string; signed: SignedManifest }): Promise<Manifest>;
  encryptStream(args: { fileKey: KeyHandle; plaintext: ReadableStream<Uint8Array>; recordSize?: number }): Promise<{ ciphertext: ReadableStream<Uint8Array> }>;
  decryptStream(args: {
    fileKey: KeyHandle;
    ciphertext: ReadableStream<Uint8Array>;
    plaintextLength?: number;
    expectedHeaderSha256?: string;
  }): Promise<{ plaintext: ReadableStream<Uint8Array> }>;
  decryptRange(args: {
    fileKey: KeyHandle;
    header: Uint8Array;
    plaintextLength: number;
    start: number;
    end: number;
    ciphertext: Uint8Array;
    expectedHeaderSha256?: string;
  }): Promise<{ plaintext: Uint8Array }>;
  /** base64url SHA-256 of a stream header, for the manifest. */
  headerSha256(args: { header: Uint8Array }): Promise<{ headerSha256: string }>;
  /**
   * Fetches a ciphertext (GET `url` with the browser's credentials and `headers`) and decrypts it
   * while it arrives, writing the plaintext into `sink` (plaintext-port.ts: transferred buffers,
   * a byte window for backpressure). In the browser this runs inside the crypto Worker, so
   * ciphertext and plaintext never pass through the page and the key never leaves the Worker.
   * `control` (optional) gets `progress` (ciphertext bytes) and takes `cancel`. Resolves with the
   * plaintext byte count once the last byte is handed to the port; rejects with the decoder's
   * error, DownloadFailedError or DownloadCancelledError (and the port's reader sees an error).
   */
  decryptDownload(args: {
    fileKey: KeyHandle;
    url: string;
    headers?: Record<string, string>;
    plaintextLength: number;
    expectedHeaderSha256?: string;
    sink: MessagePort;
    control?: MessagePort;
  }): Promise<{ bytes: number }>;
}

type HandleEntry = { kind: 'user-key'; pair: UserKeyPair } | { kind: 'file-key'; key: Uint8Array };

/** The in-process implementation; holds the only references to keys. */
export class CryptoService implements CryptoApi {
  private readonly handles = new Map<KeyHandle, HandleEntry>();
  private nextHandle = 1;

  private issue(entry: HandleEntry): KeyHandle {
    // Random part so a handle from an earlier session never names a key of a later one.
    const handle = `h${this.nextHandle++}-${toHex(randomBytes(8))}`;
    this.handles.set(handle, entry);
    return handle;
  }

  private userKey(handle: KeyHandle, usage: UserKeyUsage): UserKeyPair {
    const entry = this.handles.get(handle);
    if (!entry) throw new KeyHandleUnknownError('Unknown key handle (locked or released?)');
    if (entry.kind !== 'user-key' || entry.pair.usage !== usage) throw new KeyHandleKindError(`Handle is not a ${usage} key`);
    return entry.pair;
  }

  private fileKey(handle: KeyHandle): Uint8Array {
    const entry = this.handles.get(handle);
    if (!entry) throw new KeyHandleUnknownError('Unknown key handle (locked or released?)');
    if (entry.kind !== 'file-key') throw new KeyHandleKindError('Handle is not a file key');
    return entry.key;
  }

  private async describe(pair: UserKeyPair): Promise<PublicKeyInfo> {
    const fingerprint = await fingerprintOf(pair.publicKeySpki);
    return {
      handle: this.issue({ kind: 'user-key', pair }),
      keyId: pair.keyId,
      usage: pair.usage,
      publicKey: toBase64Url(pair.publicKeySpki),
      fingerprint: toHex(fingerprint),
      fingerprintDisplay: formatFingerprint(fingerprint),
    };
  }

  private async describeAll(keys: UserKeyPair[]): Promise<UnlockedKeys> {
    const encryption = keys.find((key) => key.usage === 'encryption');
    const signing = keys.find((key) => key.usage === 'signing');
    if (!encryption || !signing) throw new KeyHandleKindError('The blob must hold one encryption and one signing key');
    return { encryption: await this.describe(encryption), signing: await this.describe(signing) };
  }

  async setupSecuPass(args: { userId: string; passphrase: string; parameters?: Argon2idParameters }) {
    const { blob, keys } = await setupSecuPass(args);
    return { blob, keys: await this.describeAll(keys) };
  }

  async unlockSecuPass(args: { userId: string; blob: unknown; passphrase: string }) {
    const { keys, upgradedBlob } = await unlockSecuPass(args);
    const described = await this.describeAll(keys);
    return upgradedBlob ? { keys: described, upgradedBlob } : { keys: described };
  }

  async changeSecuPass(args: { userId: string; blob: unknown; currentPassphrase: string; newPassphrase: string }) {
    const { blob, keys } = await changeSecuPass(args);
    return { blob, keys: await this.describeAll(keys) };
  }

  async lock(): Promise<void> {
    for (const entry of this.handles.values()) if (entry.kind === 'file-key') entry.key.fill(0);
    this.handles.clear();
  }

  async releaseHandle(args: { handle: KeyHandle }): Promise<void> {
    const entry = this.handles.get(args.handle);
    if (entry?.kind === 'file-key') entry.key.fill(0);
    this.handles.delete(args.handle);
  }

  async fingerprint(args: { publicKey: string }) {
    const spki = fromBase64Url(args.publicKey);
    const fingerprint = await fingerprintOf(spki);
    return { keyId: toBase64Url(fingerprint.subarray(0, 16)), fingerprint: toHex(fingerprint), fingerprintDisplay: formatFingerprint(fingerprint) };
  }

  async generateFileKey() {
    return { handle: this.issue({ kind: 'file-key', key: generateFileKey() }) };
  }

  async wrapFileKey(args: { fileKey: KeyHandle; recipientPublicKey: string; binding: FileKeyBinding }): Promise<WrappedFileKey> {
    const recipientPublicKey = await importPublicKey(fromBase64Url(args.recipientPublicKey), 'encryption');
    return wrapFileKey({ fileKey: this.fileKey(args.fileKey), recipientPublicKey, binding: args.binding });
  }

  async unwrapFileKey(args: { privateKey: KeyHandle; wrapped: WrappedFileKey; binding: FileKeyBinding }) {
    const pair = this.userKey(args.privateKey, 'encryption');
    const key = await unwrapFileKey({ wrapped: args.wrapped, binding: args.binding, recipientKeyPair: { privateKey: pair.privateKey, publicKey: pair.publicKey } });
    return { handle: this.issue({ kind: 'file-key', key }) };
  }

  async signManifest(args: { signingKey: KeyHandle; manifest: Manifest }): Promise<SignedManifest> {
    return signManifest({ manifest: args.manifest, signingKey: this.userKey(args.signingKey, 'signing').privateKey });
  }

  async verifyManifest(args: { signerPublicKey: string; signed: SignedManifest }): Promise<Manifest> {
    return verifyManifest({ signed: args.signed, verifyingKey: await importPublicKey(fromBase64Url(args.signerPublicKey), 'signing') });
  }

  async encryptStream(args: { fileKey: KeyHandle; plaintext: ReadableStream<Uint8Array>; recordSize?: number }) {
    const options = args.recordSize === undefined ? { fileKey: this.fileKey(args.fileKey) } : { fileKey: this.fileKey(args.fileKey), recordSize: args.recordSize };
    return { ciphertext: args.plaintext.pipeThrough(createEncryptStream(options)) };
  }

  async decryptStream(args: { fileKey: KeyHandle; ciphertext: ReadableStream<Uint8Array>; plaintextLength?: number; expectedHeaderSha256?: string }) {
    const stream = createDecryptStream({
      fileKey: this.fileKey(args.fileKey),
      ...(args.plaintextLength === undefined ? {} : { plaintextLength: args.plaintextLength }),
      ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
    });
    return { plaintext: args.ciphertext.pipeThrough(stream) };
  }

  async decryptRange(args: {
    fileKey: KeyHandle;
    header: Uint8Array;
    plaintextLength: number;
    start: number;
    end: number;
    ciphertext: Uint8Array;
    expectedHeaderSha256?: string;
  }) {
    const plaintext = await decryptPlaintextRange({
      fileKey: this.fileKey(args.fileKey),
      headerBytes: args.header,
      plaintextLength: args.plaintextLength,
      start: args.start,
      end: args.end,
      ciphertext: args.ciphertext,
      ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
    });
    return { plaintext: plaintext.slice() };
  }

  async headerSha256(args: { header: Uint8Array }) {
    return { headerSha256: toBase64Url(await sha256(args.header)) };
  }

  async decryptDownload(args: {
    fileKey: KeyHandle;
    url: string;
    headers?: Record<string, string>;
    plaintextLength: number;
    expectedHeaderSha256?: string;
    sink: MessagePort;
    control?: MessagePort;
  }): Promise<{ bytes: number }> {
    const decoder = new StreamDecoder({
      fileKey: this.fileKey(args.fileKey),
      plaintextLength: args.plaintextLength,
      ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
    });
    const abort = new AbortController();
    const writer = new PlaintextPortWriter(args.sink as unknown as PortLike, () => abort.abort());
    const control = args.control;
    if (control) control.onmessage = (event: MessageEvent<DownloadControlMessage>) => event.data?.type === 'cancel' && abort.abort();
    const cancelledOr = (failure: CryptoError) => (abort.signal.aborted ? new DownloadCancelledError('The download was cancelled') : failure);
    let fetched = 0;
    let totalBytes = 0;
    let reportedAt = 0;
    const report = (force: boolean) => {
      if (!control || (!force && Date.now() - reportedAt < PROGRESS_INTERVAL_MS)) return;
      reportedAt = Date.now();
      control.postMessage({ type: 'progress', bytes: fetched, totalBytes } satisfies DownloadControlMessage);
    };
    const emit = (plaintext: Uint8Array) => writer.queue(plaintext);
    try {
      let response: Response;
      try {
        response = await fetch(args.url, { credentials: 'include', ...(args.headers ? { headers: args.headers } : {}), signal: abort.signal });
      } catch {
        throw cancelledOr(new DownloadFailedError('The download failed'));
      }
      if (!response.ok || !response.body) throw new DownloadFailedError(`The download failed (${response.status})`);
      totalBytes = Number(response.headers.get('content-length') ?? 0);
      report(true);
      const reader = response.body.getReader();
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          throw cancelledOr(new DownloadFailedError('The download was interrupted'));
        }
        if (next.done) break;
        fetched += next.value.byteLength;
        // Records settle inside push; whatever it emitted goes out as one message.
        await decoder.push(next.value, emit);
        await writer.flush();
        report(false);
      }
      await decoder.finish(emit);
      await writer.end();
      report(true);
      return { bytes: args.plaintextLength };
    } catch (error) {
      abort.abort();
      const failure = error instanceof PortCancelledError ? new DownloadCancelledError('The download was cancelled') : error;
      writer.fail(failure instanceof Error ? failure.message : 'The download failed');
      throw failure;
    } finally {
      // The caller closes the control port once the call settles: closing here could drop the last progress.
      if (control) control.onmessage = null;
    }
  }
}

export function createCryptoService(): CryptoApi {
  return new CryptoService();
}
