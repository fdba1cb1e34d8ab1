import { getUserPublicKeys } from '@shared/api/endpoints/secupass';
import { getDeliveryE2e, getRecipientKeys, postRelease, putDeliveryE2e } from '@shared/api/endpoints/delivery-e2e';
import { getCurrentUser } from '@shared/api/endpoints/current-user';
import type { KeyValueStorage } from '@shared/api/storage-adapter';
import type { ApiClient } from '@shared/api/client';
import { E2E_MANIFEST_FILE_ID, type NewDescriptor, type PartsResponse, type ReleaseList } from '@shared/contract/deliveries';
import { putDeliveryFileOwnKey } from '@shared/api/endpoints/delivery-send';
import type { AccessDescriptor } from '@shared/contract/secupass';
import { fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from '@shared/crypto/bytes';
import { ContactKeyChangedError, DownloadCancelledError, DownloadFailedError, FileKeyUnwrapError, ManifestSignatureError } from '@shared/crypto/errors';
import { checkContactKey, checkRetiredContactKey, confirmChangedKey as movePin, confirmRetiredKey, type KeyPinStore } from '@shared/crypto/key-pinning';
import { MANIFEST_VERSION, type Manifest, type ManifestFile, type SignedManifest } from '@shared/crypto/manifest';
import type { CryptoApi, DownloadControlMessage, KeyHandle, UnlockedKeys } from '@shared/crypto/service';
import { DEFAULT_RECORD_SIZE } from '@shared/crypto/stream-format';
import { contactPinsFor } from './contact-pins';
import type { PreparedUpload, UploadSource } from './upload';

/**
 * Levels 3/4 on the client (DESIGN §3), without UI, for the web client and the add-in. The
 * protocol is in shared/transfer/README.md "Levels 3/4"; the server side in server/deliveries/e2e-keys.ts (and e2e-lookups.ts, e2e-release.ts).
 */

/** A contact whose key differs from the pinned one: shown to the user to compare fingerprints. */
export interface ChangedContactKey {
  email: string;
  userUuid: string;
  usage: 'encryption' | 'signing';
  pinnedFingerprint: string;
  presentedFingerprint: string;
  /** 16 groups of 4 hex digits, for people. */
  presentedFingerprintDisplay: string;
  /** A retired signing key (the sender reset their passphrase since): only old signatures are checked with it. */
  retired?: boolean;
}

/** The `e2e` option of `sendDelivery` (and of the reader): the crypto Worker and the caller's unlocked keys. */
export interface E2eOptions {
  crypto: CryptoApi;
  /** The caller's unlocked SecuPass keys (handles). */
  keys: UnlockedKeys;
  /** Where pins live; default: the user's sealed list on the server (contact-pins.ts, every device). */
  pins?: KeyPinStore;
  /** A pinned key changed: resolve true only after the user compared fingerprints. Absent → refused. */
  confirmChangedKey?: (change: ChangedContactKey) => Promise<boolean>;
  /** Plaintext bytes per record; default 512 KiB (DESIGN §3). Tests use small records for many parts. */
  recordSize?: number;
}

const PIN_STORAGE_PREFIX = 'kuvert.keyPins.';

/** Pins kept in a key-value storage, one map per owner (the first version's browser pins; now only read to migrate them, contact-pins.ts). */
export class StorageKeyPinStore implements KeyPinStore {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly owner: string,
  ) {}
  private read(): Record<string, string> {
    try {
      return JSON.parse(this.storage.getItem(PIN_STORAGE_PREFIX + this.owner) ?? '{}') as Record<string, string>;
    } catch {
      return {};
    }
  }
  async get(contactId: string): Promise<string | undefined> {
    return this.read()[contactId];
  }
  async set(contactId: string, fingerprint: string): Promise<void> {
    this.storage.setItem(PIN_STORAGE_PREFIX + this.owner, JSON.stringify({ ...this.read(), [contactId]: fingerprint }));
  }
}

/**
 * Default pins: the user's list on the server (contact-pins.ts), shared by every device; this
 * device's earlier local pins are merged into it on first load.
 */
async function pinsOf(client: ApiClient, e2e: E2eOptions): Promise<KeyPinStore> {
  if (e2e.pins) return e2e.pins;
  return contactPinsFor({
    client,
    crypto: e2e.crypto,
    keys: e2e.keys,
    ownerUserId: async () => {
      const { user } = await getCurrentUser(client);
      if (!user) throw new Error('Not signed in');
      return user.uuid;
    },
  });
}

/**
 * A contact's key checked against its pin (first use pins it). The fingerprint and key id are
 * recomputed from the SPKI: a server's claim is never trusted. Changed + not confirmed → throws.
 */
export async function verifiedContactKey(
  client: ApiClient,
  e2e: E2eOptions,
  contact: { email: string; userUuid: string; usage: 'encryption' | 'signing'; keyId: string; publicKey: string; retired?: boolean },
): Promise<{ keyId: string; publicKey: string; fingerprint: string }> {
  const computed = await e2e.crypto.fingerprint({ publicKey: contact.publicKey });
  if (computed.keyId !== contact.keyId) throw new ContactKeyChangedError('The key id does not belong to the key');
  const pins = await pinsOf(client, e2e);
  const contactId = `${contact.userUuid}:${contact.usage}`;
  const verdict = contact.retired ? await checkRetiredContactKey(pins, contactId, computed.fingerprint) : await checkContactKey(pins, contactId, computed.fingerprint);
  if (verdict.status === 'changed') {
    const change: ChangedContactKey = {
      email: contact.email,
      userUuid: contact.userUuid,
      usage: contact.usage,
      pinnedFingerprint: verdict.pinnedFingerprint,
      presentedFingerprint: verdict.presentedFingerprint,
      presentedFingerprintDisplay: computed.fingerprintDisplay,
      ...(contact.retired ? { retired: true } : {}),
    };
    const ok = await e2e.confirmChangedKey?.(change);
    if (ok !== true) throw new ContactKeyChangedError(`The key of ${contact.email} changed and was not confirmed`, change);
    if (contact.retired) await confirmRetiredKey(pins, contactId, computed.fingerprint);
    else await movePin(pins, contactId, computed.fingerprint);
  }
  return { keyId: computed.keyId, publicKey: contact.publicKey, fingerprint: computed.fingerprint };
}

/** Someone file keys are wrapped to. */
interface Reader {
  userUuid: string;
  keyId: string;
  publicKey: string;
}

async function collectBlob(stream: ReadableStream<Uint8Array>): Promise<Blob> {
  return new Response(stream).blob();
}

function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new Blob([bytes as Uint8Array<ArrayBuffer>]).stream();
}

async function wrapAll(
  e2e: E2eOptions,
  deliveryUuid: string,
  keysByFileId: ReadonlyMap<string, KeyHandle>,
  readers: readonly Reader[],
): Promise<NewDescriptor[]> {
  const descriptors: NewDescriptor[] = [];
  for (const reader of readers) {
    for (const [fileId, fileKey] of keysByFileId) {
      const wrappedKey = await e2e.crypto.wrapFileKey({
        fileKey,
        recipientPublicKey: reader.publicKey,
        binding: { contextId: deliveryUuid, fileId, recipientKeyId: reader.keyId },
      });
      descriptors.push({ recipientUserUuid: reader.userUuid, recipientKeyId: reader.keyId, fileId, wrappedKey });
    }
  }
  return descriptors;
}

/**
 * One E2E send (used by `sendDelivery` when `e2e` is given): `prepare` checks the readers' keys
 * before any byte is uploaded, `prepareFile` encrypts each file part by part, `finish` signs the manifest,
 * encrypts it, wraps every key to every reader and uploads manifest + descriptors.
 */
export class E2eSendSession {
  private readers: Reader[] = [];
  private senderUserUuid = '';
  private senderEmail = '';
  private readonly files = new Map<UploadSource, { handle: KeyHandle; upload: KeyHandle; headerSha256: string; source: UploadSource }>();
  private readonly recordSize: number;

  constructor(
    private readonly client: ApiClient,
    private readonly e2e: E2eOptions,
    /** Level 4: the message, which travels only inside the encrypted manifest. */
    private readonly message: { subject: string; body: string } | undefined,
  ) {
    this.recordSize = e2e.recordSize ?? DEFAULT_RECORD_SIZE;
  }

  /** Readers: the sender's own key and every recipient with an active SecuPass (pins checked). */
  async prepare(deliveryUuid: string, signal?: AbortSignal): Promise<void> {
    const answer = await getRecipientKeys(this.client, deliveryUuid, signal);
    this.senderUserUuid = answer.sender.userUuid;
    this.senderEmail = answer.sender.email.toLowerCase();
    const own = this.e2e.keys.encryption;
    this.readers = [{ userUuid: answer.sender.userUuid, keyId: own.keyId, publicKey: own.publicKey }];
    for (const r of answer.recipients) {
      const key = r.keys.find((k) => k.usage === 'encryption');
      // No key yet: "release needed" (the server records it and invites the recipient).
      if (!r.userUuid || r.secupassState !== 'active' || !key || r.userUuid === answer.sender.userUuid) continue;
      const verified = await verifiedContactKey(this.client, this.e2e, { email: r.email, userUuid: r.userUuid, usage: 'encryption', keyId: key.keyId, publicKey: key.publicKey });
      this.readers.push({ userUuid: r.userUuid, keyId: verified.keyId, publicKey: verified.publicKey });
    }
  }

  /**
   * The upload of one source, encrypted part by part as the engine asks (README "Levels 3/4").
   * `resume`: the file already on the draft; when its listing carries the sender's own key copy
   * and it unwraps, that key is used again (so every part comes out byte-identical and only the
   * missing ones are sent) — `resumed` says so. Otherwise a fresh key (`storeOwnKey` after the announce).
   */
  async prepareFile(
    deliveryUuid: string,
    source: UploadSource,
    resume?: { fileId: string; parts: PartsResponse },
  ): Promise<{ upload: PreparedUpload; resumed: boolean }> {
    const previous = this.files.get(source);
    if (previous) {
      this.files.delete(source);
      await this.e2e.crypto.releaseHandle({ handle: previous.upload });
      await this.e2e.crypto.releaseHandle({ handle: previous.handle });
    }
    const own = this.e2e.keys.encryption;
    let handle: KeyHandle | undefined;
    const copy = resume?.parts.ownKey;
    if (resume && copy && copy.recipientKeyId === own.keyId) {
      // A copy that does not unwrap (another key, tampered, bound elsewhere) just means: start over.
      handle = await this.e2e.crypto
        .unwrapFileKey({ privateKey: own.handle, wrapped: copy.wrappedKey, binding: { contextId: deliveryUuid, fileId: resume.fileId, recipientKeyId: own.keyId } })
        .then((r) => r.handle)
        .catch(() => undefined);
    }
    const resumed = handle !== undefined;
    handle ??= (await this.e2e.crypto.generateFileKey()).handle;
    const fileKey = handle;
    const recordSize = this.recordSize;
    // The Worker reads each part's records from the file itself and seals them (no plaintext
    // crosses to it); part i is records 8i … 8i+7, part 0 also the header (the server's layout).
    const opened = await this.e2e.crypto.openUpload({ fileKey, recordSize, source: source.blob });
    const { headerSha256 } = opened;
    this.files.set(source, { handle: fileKey, upload: opened.upload, headerSha256, source });
    const crypto = this.e2e.crypto;
    const upload: PreparedUpload = {
      size: opened.size,
      encrypted: true,
      encryption: { recordSize, headerSha256 },
      strictResume: true,
      // Built, hashed and made a Blob in the Worker (README "Copies on an E2E upload").
      readPart: ({ start, end }) => crypto.sealUploadPartBody({ upload: opened.upload, start, end }),
    };
    return { upload, resumed };
  }

  /** After a fresh announce, before any part: the file key wrapped to the sender's own key, on the draft (resume after a reload). */
  async storeOwnKey(deliveryUuid: string, source: UploadSource, fileId: string, signal?: AbortSignal): Promise<void> {
    const entry = this.files.get(source);
    if (!entry) throw new Error('prepareFile first');
    const own = this.e2e.keys.encryption;
    const wrappedKey = await this.e2e.crypto.wrapFileKey({
      fileKey: entry.handle,
      recipientPublicKey: own.publicKey,
      binding: { contextId: deliveryUuid, fileId, recipientKeyId: own.keyId },
    });
    await putDeliveryFileOwnKey(this.client, deliveryUuid, fileId, { recipientKeyId: own.keyId, wrappedKey }, signal);
  }

  /** After every file is committed: signed, encrypted manifest and all descriptors to the server. */
  async finish(deliveryUuid: string, fileIds: ReadonlyMap<UploadSource, string>, signal?: AbortSignal): Promise<void> {
    const manifestFiles: ManifestFile[] = [];
    const keys = new Map<string, KeyHandle>();
    for (const [source, entry] of this.files) {
      const fileId = fileIds.get(source);
      if (!fileId) continue;
      keys.set(fileId, entry.handle);
      const mimeType = source.mimeType || source.blob.type || 'application/octet-stream';
      manifestFiles.push({ fileId, name: source.name.normalize('NFC'), size: source.blob.size, mimeType, headerSha256: entry.headerSha256 });
    }
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      contextId: deliveryUuid,
      senderUserId: this.senderUserUuid,
      senderEmail: this.senderEmail,
      signerKeyId: this.e2e.keys.signing.keyId,
      createdAt: new Date().toISOString(),
      files: manifestFiles,
      ...(this.message ? { message: this.message } : {}),
    };
    const signed = await this.e2e.crypto.signManifest({ signingKey: this.e2e.keys.signing.handle, manifest });
    const { handle: manifestKey } = await this.e2e.crypto.generateFileKey();
    try {
      const { ciphertext } = await this.e2e.crypto.encryptStream({ fileKey: manifestKey, plaintext: bytesStream(utf8Encode(JSON.stringify(signed))) });
      const encryptedManifest = new Uint8Array(await (await collectBlob(ciphertext)).arrayBuffer());
      keys.set(E2E_MANIFEST_FILE_ID, manifestKey);
      const descriptors = await wrapAll(this.e2e, deliveryUuid, keys, this.readers);
      await putDeliveryE2e(this.client, deliveryUuid, { manifest: toBase64Url(encryptedManifest), descriptors }, signal);
    } finally {
      await this.e2e.crypto.releaseHandle({ handle: manifestKey });
    }
  }

  /** Forgets every file key (after success or failure). */
  async dispose(): Promise<void> {
    for (const entry of this.files.values()) {
      await this.e2e.crypto.releaseHandle({ handle: entry.upload }).catch(() => undefined);
      await this.e2e.crypto.releaseHandle({ handle: entry.handle }).catch(() => undefined);
    }
    this.files.clear();
  }
}

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

export interface OpenedE2eFile extends ManifestFile {
  fileKey: KeyHandle;
  /** base64url SHA-256 of the whole plaintext as signed (a data room file of metadata format 1): checked while decrypting. */
  contentSha256?: string;
  /** base64url content commitment as signed (format 2, shared/crypto/README section 7): checked record by record while decrypting. */
  contentCommitment?: string;
}

/** The decrypt call's arguments for what a room file's metadata signed about its content (none for a delivery file). */
export function signedContentArgs(file: OpenedE2eFile): { expectedContentSha256?: string; expectedContentCommitment?: string } {
  return {
    ...(file.contentSha256 === undefined ? {} : { expectedContentSha256: file.contentSha256 }),
    ...(file.contentCommitment === undefined ? {} : { expectedContentCommitment: file.contentCommitment }),
  };
}

/** Who signed a delivery, as verified (not as the server says). */
export interface VerifiedSigner {
  userUuid: string;
  /** The signed address (manifest version 2); for version 1 manifests the server's address of that user (`signedIdentity` false). */
  email: string;
  signedIdentity: boolean;
  /** SHA-256 of the signing key's SPKI, hex. */
  fingerprint: string;
  keyId: string;
  /** Signed with a key the sender has since retired (passphrase reset): still authentic. */
  keyRetired: boolean;
  /** The reader's own delivery. */
  own: boolean;
  /** The reader verified this key of the sender in person (fingerprint or QR code; server-stored pins only). */
  verified: boolean;
}

/** A level 3/4 delivery as its reader sees it, after every check. */
export interface OpenedE2eDelivery {
  deliveryUuid: string;
  manifest: Manifest;
  signer: VerifiedSigner;
  /** Version 2: the server names this user with another address than the signature does (show the signed one, warn). */
  identityMismatch?: { signedEmail: string; serverEmail: string };
  /** The signed file list (authoritative: names and sizes come from here, not from the server's list). */
  files: OpenedE2eFile[];
  /** Level 4. */
  message?: { subject: string; body: string };
  /** Forgets the unwrapped keys. */
  close(): Promise<void>;
}

function ownDescriptor(descriptors: readonly AccessDescriptor[], fileId: string, keyId: string): AccessDescriptor {
  const found = descriptors.find((d) => d.fileId === fileId && d.recipientKeyId === keyId);
  if (!found) throw new FileKeyUnwrapError(`No key copy for ${fileId}`);
  return found;
}

/**
 * Opens a level 3/4 delivery: fetches the encrypted manifest and the caller's own descriptors,
 * unwraps the manifest key, decrypts the manifest, verifies its signature against the sender's
 * pinned signing key and its binding (this delivery, this sender), then unwraps each file key.
 * Errors: ApiError (404 AccessDescriptorNotFoundException: passphrase/release missing),
 * ContactKeyChangedError, ManifestSignatureError, FileKeyUnwrapError, stream errors.
 */
export async function openE2eDelivery(options: { client: ApiClient; deliveryUuid: string; e2e: E2eOptions; signal?: AbortSignal }): Promise<OpenedE2eDelivery> {
  const { client, deliveryUuid, e2e, signal } = options;
  const answer = await getDeliveryE2e(client, deliveryUuid, signal);
  const keyId = e2e.keys.encryption.keyId;
  const handles: KeyHandle[] = [];
  const close = async () => {
    for (const handle of handles) await e2e.crypto.releaseHandle({ handle }).catch(() => undefined);
  };
  try {
    const manifestCopy = ownDescriptor(answer.descriptors, E2E_MANIFEST_FILE_ID, keyId);
    const { handle: manifestKey } = await e2e.crypto.unwrapFileKey({
      privateKey: e2e.keys.encryption.handle,
      wrapped: manifestCopy.wrappedKey,
      binding: { contextId: deliveryUuid, fileId: E2E_MANIFEST_FILE_ID, recipientKeyId: keyId },
    });
    handles.push(manifestKey);
    const { plaintext } = await e2e.crypto.decryptStream({ fileKey: manifestKey, ciphertext: bytesStream(fromBase64Url(answer.manifest)) });
    let signed: SignedManifest;
    try {
      signed = JSON.parse(utf8Decode(new Uint8Array(await (await collectBlob(plaintext)).arrayBuffer()))) as SignedManifest;
    } catch (cause) {
      throw new ManifestSignatureError(`The manifest is not a signed manifest (${String(cause)})`);
    }
    // The signer's key is looked up by the key id the manifest names (a retired key for deliveries
    // made before a reset), checked against the pins, and only then used to verify.
    const signer = await senderSigningKey(client, e2e, answer.senderUserUuid, String((signed as { manifest?: { signerKeyId?: unknown } } | null)?.manifest?.signerKeyId ?? ''));
    const manifest = await e2e.crypto.verifyManifest({ signerPublicKey: signer.publicKey, signed });
    // A valid signature on another delivery's manifest (replayed by a server) is still refused.
    if (manifest.contextId !== deliveryUuid || manifest.senderUserId !== answer.senderUserUuid || manifest.signerKeyId !== signer.keyId) {
      throw new ManifestSignatureError('The manifest belongs to another delivery or sender');
    }
    const signedEmail = manifest.version === 2 ? manifest.senderEmail : undefined;
    const own = signer.keyId === e2e.keys.signing.keyId;
    const pins = await pinsOf(client, e2e);
    const verifiedSigner: VerifiedSigner = {
      userUuid: manifest.senderUserId,
      email: signedEmail ?? signer.serverEmail,
      signedIdentity: signedEmail !== undefined,
      fingerprint: signer.fingerprint,
      keyId: signer.keyId,
      keyRetired: signer.retired,
      own,
      verified: !own && (pins.isVerified?.(`${manifest.senderUserId}:signing`, signer.fingerprint) ?? false),
    };
    const mismatch = signedEmail !== undefined && signedEmail.toLowerCase() !== signer.serverEmail.toLowerCase() ? { signedEmail, serverEmail: signer.serverEmail } : undefined;
    const files: OpenedE2eFile[] = [];
    for (const file of manifest.files) {
      const { handle } = await e2e.crypto.unwrapFileKey({
        privateKey: e2e.keys.encryption.handle,
        wrapped: ownDescriptor(answer.descriptors, file.fileId, keyId).wrappedKey,
        binding: { contextId: deliveryUuid, fileId: file.fileId, recipientKeyId: keyId },
      });
      handles.push(handle);
      files.push({ ...file, fileKey: handle });
    }
    return {
      deliveryUuid,
      manifest,
      signer: verifiedSigner,
      ...(mismatch ? { identityMismatch: mismatch } : {}),
      files,
      ...(manifest.message ? { message: manifest.message } : {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The sender's signing key named `signerKeyId`: own keys for one's own delivery, else fetched
 * (live or retired) and checked against the pins. An id the sender does not have falls back to
 * the live key — its signature check then fails, or its pin check names the change.
 */
async function senderSigningKey(
  client: ApiClient,
  e2e: E2eOptions,
  senderUserUuid: string,
  signerKeyId: string,
): Promise<{ keyId: string; publicKey: string; fingerprint: string; retired: boolean; serverEmail: string }> {
  const own = e2e.keys.signing;
  const answer = await getUserPublicKeys(client, senderUserUuid);
  const signing = answer.keys.filter((k) => k.usage === 'signing');
  if (signing.some((k) => k.keyId === own.keyId) && signerKeyId === own.keyId) {
    return { keyId: own.keyId, publicKey: own.publicKey, fingerprint: own.fingerprint, retired: false, serverEmail: answer.email };
  }
  const key = signing.find((k) => k.keyId === signerKeyId) ?? signing.find((k) => k.retired !== true);
  if (!key) throw new ManifestSignatureError('The sender has no signing key');
  const retired = key.retired === true;
  const verified = await verifiedContactKey(client, e2e, { email: answer.email, userUuid: senderUserUuid, usage: 'signing', keyId: key.keyId, publicKey: key.publicKey, retired });
  return { ...verified, retired, serverEmail: answer.email };
}

/**
 * The user compared a contact's fingerprint in person (read out, or the QR code scanned): that key
 * is marked verified in the user's pin list (and pinned). False when the pin store keeps no
 * verifications (a store given by the caller without `markVerified`).
 */
export async function markContactVerified(options: { client: ApiClient; e2e: E2eOptions; userUuid: string; usage: 'encryption' | 'signing'; fingerprint: string }): Promise<boolean> {
  const pins = await pinsOf(options.client, options.e2e);
  if (!pins.markVerified) return false;
  await pins.markVerified(`${options.userUuid}:${options.usage}`, options.fingerprint);
  return true;
}

/** SPEC §4 download states of an E2E file. */
export type E2eDownloadState = 'pending' | 'decryptingKey' | 'decryptingFile' | 'success' | 'failed';
export interface E2eDownloadProgress {
  state: E2eDownloadState;
  /** Ciphertext bytes received so far. */
  bytes: number;
  totalBytes: number;
}

/**
 * Files larger than this are refused by the in-memory download: the plaintext is collected in a
 * Blob. Browsers keep large Blobs on disk where they can, but not everywhere; 2 GiB stays below
 * every engine's Blob limit. The streamed download (service worker, DESIGN §4) has no cap.
 */
export const MAX_IN_MEMORY_DOWNLOAD_BYTES = 2 * 1024 ** 3;

export class E2eDownloadError extends Error {
  override readonly name = 'E2eDownloadError';
  constructor(
    /** SPEC §8 download failures. */
    readonly kind: 'download' | 'fileDecryption' | 'tooLarge',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface E2eFileStreamOptions {
  delivery: OpenedE2eDelivery;
  fileId: string;
  crypto: CryptoApi;
  /** URL of the ciphertext (`deliveryContentUrl`); fetched with credentials. */
  url: string;
  fetch?: typeof fetch;
  onProgress?: (progress: E2eDownloadProgress) => void;
  signal?: AbortSignal;
}

/**
 * Downloads one file of an opened delivery and decrypts it while it arrives (stream decoder with
 * the manifest's size and header hash, so truncation, reordering and a swapped header are named).
 * Returns the plaintext as a stream with no size cap: the caller pipes it to disk (save picker or
 * service worker, web/lib/e2e-download.ts). A decryption failure errors the stream; the caller
 * maps it with `e2eDownloadFailure`.
 */
export async function openE2eFileStream(options: E2eFileStreamOptions): Promise<{ plaintext: ReadableStream<Uint8Array>; size: number; name: string }> {
  const file = options.delivery.files.find((f) => f.fileId === options.fileId);
  if (!file) throw new E2eDownloadError('download', 'The file is not in the signed manifest');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let bytes = 0;
  let total = 0;
  const report = (state: E2eDownloadState) => options.onProgress?.({ state, bytes, totalBytes: total });
  report('pending');
  let response: Response;
  try {
    response = await doFetch(options.url, { credentials: 'include', signal: options.signal });
  } catch (cause) {
    report('failed');
    throw new E2eDownloadError('download', 'The download failed', { cause });
  }
  if (!response.ok || !response.body) {
    report('failed');
    throw new E2eDownloadError('download', `The download failed (${response.status})`);
  }
  total = Number(response.headers.get('content-length') ?? 0);
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      report('decryptingFile');
      controller.enqueue(chunk);
    },
  });
  report('decryptingFile');
  try {
    const { plaintext } = await options.crypto.decryptStream({
      fileKey: file.fileKey,
      ciphertext: response.body.pipeThrough(counter),
      plaintextLength: file.size,
      expectedHeaderSha256: file.headerSha256,
      ...signedContentArgs(file),
    });
    return { plaintext, size: file.size, name: file.name };
  } catch (cause) {
    report('failed');
    if (options.signal?.aborted) throw cause;
    throw new E2eDownloadError('fileDecryption', 'The file could not be decrypted', { cause });
  }
}

/**
 * The fast download (DESIGN §4): the crypto Worker fetches the ciphertext itself and writes the
 * plaintext into `sink`, a MessagePort whose other end is read by the download service worker or
 * the page (`plaintextPortStream`, shared/crypto/plaintext-port.ts); the caller only wires ports.
 * `headers` go with the Worker's fetch (cookies go anyway). Resolves once the last byte is handed
 * over; throws E2eDownloadError (`download` or `fileDecryption`), or the abort reason when
 * `signal` aborted. A failure errors the reader's stream, so no partial file is kept.
 */
export async function decryptE2eFileToPort(options: {
  delivery: OpenedE2eDelivery;
  fileId: string;
  crypto: CryptoApi;
  url: string;
  headers?: Record<string, string>;
  sink: MessagePort;
  onProgress?: (progress: E2eDownloadProgress) => void;
  signal?: AbortSignal;
}): Promise<void> {
  const file = options.delivery.files.find((f) => f.fileId === options.fileId);
  if (!file) throw new E2eDownloadError('download', 'The file is not in the signed manifest');
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const control = new MessageChannel();
  let last: E2eDownloadProgress = { state: 'pending', bytes: 0, totalBytes: 0 };
  const report = (progress: E2eDownloadProgress) => {
    last = progress;
    onProgress?.(progress);
  };
  report(last);
  control.port1.onmessage = (event: MessageEvent<DownloadControlMessage>) => {
    if (event.data?.type === 'progress') report({ state: 'decryptingFile', bytes: event.data.bytes, totalBytes: event.data.totalBytes });
  };
  const cancel = () => control.port1.postMessage({ type: 'cancel' } satisfies DownloadControlMessage);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    await options.crypto.decryptDownload({
      fileKey: file.fileKey,
      url: options.url,
      ...(options.headers ? { headers: options.headers } : {}),
      plaintextLength: file.size,
      expectedHeaderSha256: file.headerSha256,
      ...signedContentArgs(file),
      sink: options.sink,
      control: control.port2,
    });
    report({ ...last, state: 'success' });
  } catch (cause) {
    report({ ...last, state: 'failed' });
    if (signal?.aborted) throw signal.reason;
    if (cause instanceof DownloadFailedError || cause instanceof DownloadCancelledError) throw new E2eDownloadError('download', cause.message, { cause });
    throw new E2eDownloadError('fileDecryption', 'The file could not be decrypted', { cause });
  } finally {
    signal?.removeEventListener('abort', cancel);
    control.port1.onmessage = null;
    control.port1.close();
  }
}

/**
 * The in-memory download: `openE2eFileStream` collected in a Blob, capped at
 * MAX_IN_MEMORY_DOWNLOAD_BYTES (the fallback where no streamed path exists).
 */
export async function downloadE2eFile(options: E2eFileStreamOptions): Promise<Blob> {
  const file = options.delivery.files.find((f) => f.fileId === options.fileId);
  if (file && file.size > MAX_IN_MEMORY_DOWNLOAD_BYTES) throw new E2eDownloadError('tooLarge', 'The file is too large for an in-memory download');
  let last: E2eDownloadProgress = { state: 'pending', bytes: 0, totalBytes: 0 };
  const { plaintext } = await openE2eFileStream({ ...options, onProgress: (p) => { last = p; options.onProgress?.(p); } });
  try {
    const blob = await collectBlob(plaintext);
    options.onProgress?.({ ...last, state: 'success' });
    return blob;
  } catch (cause) {
    options.onProgress?.({ ...last, state: 'failed' });
    if (options.signal?.aborted) throw cause;
    throw new E2eDownloadError('fileDecryption', 'The file could not be decrypted', { cause });
  }
}

// ---------------------------------------------------------------------------------------
// Release (SPEC §4): the sender re-wraps to a recipient's new key. Nothing is escrowed.
// ---------------------------------------------------------------------------------------

export type ReleaseItem = ReleaseList['items'][number];

/**
 * Releases one waiting recipient: opens the delivery with the sender's own copies (so the
 * manifest is verified first), checks the recipient's new key against its pin (`confirmChangedKey`
 * — a new key after a reset IS a changed key and needs the user's confirmation), wraps every
 * file key and the manifest key to it, and posts the copies. The server mails the recipient.
 */
export async function releaseToRecipient(options: { client: ApiClient; item: ReleaseItem; e2e: E2eOptions; signal?: AbortSignal }): Promise<void> {
  const { client, item, e2e, signal } = options;
  const key = item.recipient.keys.find((k) => k.usage === 'encryption');
  if (!key) throw new FileKeyUnwrapError('The recipient has no encryption key');
  const verified = await verifiedContactKey(client, e2e, { email: item.recipient.email, userUuid: item.recipient.userUuid, usage: 'encryption', keyId: key.keyId, publicKey: key.publicKey });
  const target = { keyId: verified.keyId, publicKey: verified.publicKey };
  const answer = await getDeliveryE2e(client, item.deliveryUuid, signal);
  const opened = await openE2eDelivery({ client, deliveryUuid: item.deliveryUuid, e2e, signal });
  const handles: KeyHandle[] = [];
  try {
    const keys = new Map<string, KeyHandle>(opened.files.map((f) => [f.fileId, f.fileKey]));
    const { handle: manifestKey } = await e2e.crypto.unwrapFileKey({
      privateKey: e2e.keys.encryption.handle,
      wrapped: ownDescriptor(answer.descriptors, E2E_MANIFEST_FILE_ID, e2e.keys.encryption.keyId).wrappedKey,
      binding: { contextId: item.deliveryUuid, fileId: E2E_MANIFEST_FILE_ID, recipientKeyId: e2e.keys.encryption.keyId },
    });
    handles.push(manifestKey);
    keys.set(E2E_MANIFEST_FILE_ID, manifestKey);
    const descriptors = await wrapAll(e2e, item.deliveryUuid, keys, [{ userUuid: item.recipient.userUuid, ...target }]);
    await postRelease(client, item.deliveryUuid, descriptors, signal);
  } finally {
    for (const handle of handles) await e2e.crypto.releaseHandle({ handle }).catch(() => undefined);
    await opened.close();
  }
}
