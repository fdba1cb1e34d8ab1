// The handle-based crypto API. In Node it is used directly (createCryptoService); in the browser it
// runs inside ONE dedicated Worker (worker.ts) and the page talks to it through createCryptoProxy.
// Either way callers hold opaque key handles, never key bytes.
import { fromBase64Url, toBase64Url, toHex } from './bytes';
import { CryptoError, DownloadCancelledError, DownloadFailedError, KeyHandleKindError, KeyHandleUnknownError } from './errors';
import { generateFileKey, unwrapFileKey, wrapFileKey, type FileKeyBinding, type WrappedFileKey } from './file-key';
import { fingerprintOf, formatFingerprint, importPublicKey, keyIdOf, type UserKeyPair, type UserKeyUsage } from './keys';
import { signManifest, verifyManifest, type Manifest, type SignedManifest } from './manifest';
import { signRoomMemberList, verifyRoomMemberList, type RoomMemberEntry, type RoomMemberListExpectation, type SignedRoomMemberList } from './room-members';
import { openRoomComment, sealRoomComment, type RoomCommentRef } from './room-comments';
import { signRoomKeyGrant, verifyRoomKeyGrant, type RoomKeyGrantExpectation, type SignedRoomKeyGrant } from './room-grant';
import { openContactPins, sealContactPins, type ContactPinList, type SealedContactPins } from './contact-pins';
import { changeSecuPass, setupSecuPass, unlockSecuPass, type Argon2idParameters } from './secupass';
import { PlaintextPortWriter, PortCancelledError, type PortLike } from './plaintext-port';
import { StreamDecoder, createDecryptStream } from './stream-decoder';
import { STREAM_HEADER_BYTES, STREAM_TAG_BYTES, decodeStreamHeader } from './stream-format';
import { createEncryptStream } from './stream-encoder';
import { assertDerivedHeader, derivedEncryptionContext, sealRecordRun } from './stream-parts';
import { decryptPlaintextRange } from './stream-random-access';
import type { StreamContext } from './stream-records';
import { randomBytes, sha256 } from './subtle';
import type { SignedContent } from './content-commitment';
import { UploadSealer } from './upload-sealer';
import { keepUnlockedKeys, restoreKeptKeys, type KeptKeysStore } from './session-keep';
import type { CryptoApi, DecryptDownloadArgs, DecryptRangeArgs, DownloadControlMessage, KeyHandle, PublicKeyInfo, RoomBatchResult, RoomNameResult, UnlockedKeys } from './crypto-api';

export type { CryptoApi, DecryptDownloadArgs, DecryptRangeArgs, DownloadControlMessage, KeyHandle, PublicKeyInfo, RoomBatchResult, RoomNameResult, UnlockedKeys } from './crypto-api';
import {
  ROOM_KEY_FILE_ID,
  decryptRoomName,
  deriveRoomKeys,
  encryptRoomName,
  generateRoomKey,
  openRoomFileMetadata,
  sealRoomFileMetadata,
  unwrapRoomFileKey,
  verifyRoomFileMetadata,
  wrapRoomFileKey,
  type RoomFileMetadata,
  type RoomFileRef,
  type RoomItemKind,
  type RoomKeys,
  type RoomMetadataExpectation,
  type SignedRoomFileMetadata,
} from './room';


/** Whole records per batch the decoder gets at once (4 × 512 KiB: one port message per batch). */
const RECORDS_PER_BATCH = 4;
/**
 * Batch buffers reused in turn. A batch is handed to the decoder, which opens records straight
 * from it and keeps views of the last few (RECORDS_IN_FLIGHT < RECORDS_PER_BATCH) until they
 * settle, and of a failed one until it is diagnosed, at the latest one batch later. So the decoder
 * refers to at most the current and the previous batch, and READ_AHEAD_BATCHES more are being
 * read from the network meanwhile: 2 + 2 = 4.
 */
const BATCH_POOL = 4;
/** Batches read while the decoder works: the network never waits for WebCrypto, nor WebCrypto for the network. */
const READ_AHEAD_BATCHES = 2;
/** Progress goes out at most this often: the page redraws a bar, not once per network chunk. */
const PROGRESS_INTERVAL_MS = 250;


/** Runs `work` on every item at once (WebCrypto spreads them over its threads); a failure becomes its code. */
async function eachSettled<I, T>(items: readonly I[], work: (item: I) => Promise<T>): Promise<RoomBatchResult<T>[]> {
  return Promise.all(
    items.map(async (item): Promise<RoomBatchResult<T>> => {
      try {
        return { ok: true, value: await work(item) };
      } catch (error) {
        return { ok: false, code: error instanceof CryptoError ? error.code : 'internal' };
      }
    }),
  );
}

/**
 * `roomFile`: a data room's file key (unwrapRoomFileKey). Its stream must carry the header the key
 * derives: the key is wrapped under the room key, which every member holds, so only the derived
 * header makes the uploader's signed header hash pin the key (README section 7, reader step 8).
 */
type HandleEntry = { kind: 'user-key'; pair: UserKeyPair } | { kind: 'file-key'; key: Uint8Array; roomFile?: true } | { kind: 'room-key'; key: Uint8Array; derived: Promise<RoomKeys> };

/** The in-process implementation; holds the only references to keys. */
export class CryptoService implements CryptoApi {
  private readonly handles = new Map<KeyHandle, HandleEntry>();
  /** Derived upload contexts per file-key handle and record size (HKDF + key import once per file, not per part). */
  private readonly uploadContexts = new Map<KeyHandle, Map<number, Promise<StreamContext>>>();
  /** Open uploads (openUpload) by upload handle, with the file-key handle they seal under. */
  private readonly uploads = new Map<KeyHandle, { sealer: UploadSealer; fileKey: KeyHandle }>();
  private nextHandle = 1;

  /** `keptKeys`: where "Keep unlocked in this browser session" keeps its record (IndexedDB in the Worker); none in Node by default. */
  constructor(private readonly options: { keptKeys?: KeptKeysStore } = {}) {}

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

  /**
   * A file key as the stream decoder takes it. A room file's comes with its derived header and, read
   * whole, with the signed content hash or commitment — required then (README section 7, reader steps 8 and 9).
   */
  private decoderKey(handle: KeyHandle, signed: SignedContent, whole: boolean): { fileKey: Uint8Array; headerDerivedFromKey?: boolean; expectedPlaintextSha256?: Uint8Array; expectedContentCommitment?: Uint8Array } {
    const fileKey = this.fileKey(handle);
    const entry = this.handles.get(handle);
    const content = {
      ...(signed.expectedContentSha256 === undefined ? {} : { expectedPlaintextSha256: fromBase64Url(signed.expectedContentSha256) }),
      ...(signed.expectedContentCommitment === undefined ? {} : { expectedContentCommitment: fromBase64Url(signed.expectedContentCommitment) }),
    };
    if (!(entry?.kind === 'file-key' && entry.roomFile)) return { fileKey, ...content };
    if (whole && signed.expectedContentSha256 === undefined && signed.expectedContentCommitment === undefined) {
      throw new KeyHandleKindError('A data room file decrypts only against its signed content commitment (expectedContentCommitment, or expectedContentSha256 for format 1)');
    }
    return { fileKey, headerDerivedFromKey: true, ...content };
  }

  private roomKeys(handle: KeyHandle): { key: Uint8Array; derived: Promise<RoomKeys> } {
    const entry = this.handles.get(handle);
    if (!entry) throw new KeyHandleUnknownError('Unknown key handle (locked or released?)');
    if (entry.kind !== 'room-key') throw new KeyHandleKindError('Handle is not a room key');
    return entry;
  }

  private issueRoomKey(key: Uint8Array): KeyHandle {
    const derived = deriveRoomKeys(key);
    derived.catch(() => undefined);
    return this.issue({ kind: 'room-key', key, derived });
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

  async unlockSecuPass(args: { userId: string; blob: unknown; passphrase: string; keepForSession?: { sessionTag: string } }) {
    const store = this.options.keptKeys;
    const keepFor = args.keepForSession;
    const keep = store && keepFor ? (plain: Parameters<typeof keepUnlockedKeys>[1]['keys']) => keepUnlockedKeys(store, { userId: args.userId, sessionTag: keepFor.sessionTag, keys: plain }) : undefined;
    const { keys, upgradedBlob } = await unlockSecuPass({ userId: args.userId, blob: args.blob, passphrase: args.passphrase, ...(keep ? { keep } : {}) });
    // Unticked: an earlier record of this user goes, so the next reload locks.
    if (store && !keepFor) await store.delete(args.userId);
    const described = await this.describeAll(keys);
    const kept = keep !== undefined;
    return upgradedBlob ? { keys: described, upgradedBlob, kept } : { keys: described, kept };
  }

  async restoreKeptKeys(args: { userId: string; sessionTag: string }) {
    const store = this.options.keptKeys;
    const pairs = store ? await restoreKeptKeys(store, args) : null;
    return { keys: pairs ? await this.describeAll(pairs) : null };
  }

  async forgetKeptKeys(args: { userId?: string }) {
    const store = this.options.keptKeys;
    if (!store) return;
    await (args.userId === undefined ? store.clear() : store.delete(args.userId));
  }

  async changeSecuPass(args: { userId: string; blob: unknown; currentPassphrase: string; newPassphrase: string }) {
    const { blob, keys } = await changeSecuPass(args);
    return { blob, keys: await this.describeAll(keys) };
  }

  async lock(): Promise<void> {
    for (const entry of this.handles.values()) if (entry.kind !== 'user-key') entry.key.fill(0);
    this.handles.clear();
    this.uploadContexts.clear();
    this.uploads.clear();
  }

  async releaseHandle(args: { handle: KeyHandle }): Promise<void> {
    const entry = this.handles.get(args.handle);
    if (entry && entry.kind !== 'user-key') entry.key.fill(0);
    this.handles.delete(args.handle);
    this.uploadContexts.delete(args.handle);
    this.uploads.delete(args.handle);
    for (const [handle, upload] of this.uploads) if (upload.fileKey === args.handle) this.uploads.delete(handle);
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

  async sealContactPins(args: { signingKey: KeyHandle; encryptionKey: KeyHandle; list: ContactPinList }): Promise<SealedContactPins> {
    const signing = this.userKey(args.signingKey, 'signing');
    const encryption = this.userKey(args.encryptionKey, 'encryption');
    return sealContactPins({ list: args.list, signingKey: signing.privateKey, signerKeyId: signing.keyId, encryptionPublicKey: encryption.publicKey, encryptionKeyId: encryption.keyId });
  }

  async openContactPins(args: { signingKey: KeyHandle; encryptionKey: KeyHandle; ownerUserId: string; sealed: SealedContactPins }): Promise<ContactPinList> {
    const signing = this.userKey(args.signingKey, 'signing');
    const encryption = this.userKey(args.encryptionKey, 'encryption');
    return openContactPins({
      sealed: args.sealed,
      ownerUserId: args.ownerUserId,
      encryptionKeyPair: { privateKey: encryption.privateKey, publicKey: encryption.publicKey },
      encryptionKeyId: encryption.keyId,
      verifyingKey: signing.publicKey,
    });
  }

  async encryptStream(args: { fileKey: KeyHandle; plaintext: ReadableStream<Uint8Array>; recordSize?: number }) {
    const options = args.recordSize === undefined ? { fileKey: this.fileKey(args.fileKey) } : { fileKey: this.fileKey(args.fileKey), recordSize: args.recordSize };
    return { ciphertext: args.plaintext.pipeThrough(createEncryptStream(options)) };
  }

  async decryptStream(args: { fileKey: KeyHandle; ciphertext: ReadableStream<Uint8Array>; plaintextLength?: number; expectedHeaderSha256?: string } & SignedContent) {
    const stream = createDecryptStream({
      ...this.decoderKey(args.fileKey, args, true),
      ...(args.plaintextLength === undefined ? {} : { plaintextLength: args.plaintextLength }),
      ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
    });
    return { plaintext: args.ciphertext.pipeThrough(stream) };
  }

  async decryptRange(args: DecryptRangeArgs) {
    const { fileKey, headerDerivedFromKey } = this.decoderKey(args.fileKey, {}, false);
    if (headerDerivedFromKey) await assertDerivedHeader(fileKey, args.header);
    const plaintext = await decryptPlaintextRange({
      fileKey,
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

  private uploadContext(handle: KeyHandle, recordSize: number): Promise<StreamContext> {
    const key = this.fileKey(handle);
    let bySize = this.uploadContexts.get(handle);
    if (!bySize) this.uploadContexts.set(handle, (bySize = new Map()));
    let context = bySize.get(recordSize);
    if (!context) {
      context = derivedEncryptionContext(key, recordSize);
      context.catch(() => bySize.delete(recordSize));
      bySize.set(recordSize, context);
    }
    return context;
  }

  async uploadStreamHeader(args: { fileKey: KeyHandle; recordSize: number }) {
    const context = await this.uploadContext(args.fileKey, args.recordSize);
    return { header: context.headerBytes.slice(), headerSha256: toBase64Url(context.headerHash) };
  }

  async encryptRecordRun(args: { fileKey: KeyHandle; recordSize: number; firstRecord: number; plaintext: Uint8Array; final: boolean }) {
    const context = await this.uploadContext(args.fileKey, args.recordSize);
    return { ciphertext: await sealRecordRun(context, { firstRecord: args.firstRecord, plaintext: args.plaintext, final: args.final }) };
  }

  async openUpload(args: { fileKey: KeyHandle; recordSize: number; source: Blob; commitContent?: boolean }) {
    const context = await this.uploadContext(args.fileKey, args.recordSize);
    const sealer = new UploadSealer(context, args.source, { commitContent: args.commitContent === true });
    const upload = `u${this.nextHandle++}-${toHex(randomBytes(8))}`;
    this.uploads.set(upload, { sealer, fileKey: args.fileKey });
    return { upload, size: sealer.size, headerSha256: toBase64Url(context.headerHash) };
  }

  private upload(handle: KeyHandle): UploadSealer {
    const entry = this.uploads.get(handle);
    if (!entry) throw new KeyHandleUnknownError('Unknown upload handle (released?)');
    return entry.sealer;
  }

  async sealUploadPart(args: { upload: KeyHandle; start: number; end: number }) {
    return { ciphertext: await this.upload(args.upload).sealPart(args.start, args.end) };
  }

  async sealUploadPartBody(args: { upload: KeyHandle; start: number; end: number }) {
    return this.upload(args.upload).sealPartBody(args.start, args.end);
  }

  async uploadContentCommitment(args: { upload: KeyHandle }) {
    return { contentCommitment: await this.upload(args.upload).contentCommitment() };
  }

  async generateRoomKey() {
    return { handle: this.issueRoomKey(generateRoomKey()) };
  }

  async wrapRoomKey(args: { roomKey: KeyHandle; roomId: string; recipientPublicKey: string }): Promise<WrappedFileKey> {
    const spki = fromBase64Url(args.recipientPublicKey);
    const recipientPublicKey = await importPublicKey(spki, 'encryption');
    const binding = { contextId: args.roomId, fileId: ROOM_KEY_FILE_ID, recipientKeyId: await keyIdOf(spki) };
    return wrapFileKey({ fileKey: this.roomKeys(args.roomKey).key, recipientPublicKey, binding });
  }

  async unwrapRoomKey(args: { privateKey: KeyHandle; roomId: string; wrapped: WrappedFileKey }) {
    const pair = this.userKey(args.privateKey, 'encryption');
    const binding = { contextId: args.roomId, fileId: ROOM_KEY_FILE_ID, recipientKeyId: pair.keyId };
    const key = await unwrapFileKey({ wrapped: args.wrapped, binding, recipientKeyPair: { privateKey: pair.privateKey, publicKey: pair.publicKey } });
    return { handle: this.issueRoomKey(key) };
  }

  async encryptRoomNames(args: { roomKey: KeyHandle; roomId: string; items: { kind: RoomItemKind; itemId: string; name: string }[] }) {
    const keys = await this.roomKeys(args.roomKey).derived;
    return { sealed: await Promise.all(args.items.map((item) => encryptRoomName(keys, { roomId: args.roomId, kind: item.kind, itemId: item.itemId }, item.name))) };
  }

  async decryptRoomNames(args: { roomKey: KeyHandle; roomId: string; items: { kind: RoomItemKind; itemId: string; sealed: string }[] }) {
    const keys = await this.roomKeys(args.roomKey).derived;
    const names = await Promise.all(
      args.items.map(async (item): Promise<RoomNameResult> => {
        try {
          return { ok: true, name: await decryptRoomName(keys, { roomId: args.roomId, kind: item.kind, itemId: item.itemId }, item.sealed) };
        } catch (error) {
          return { ok: false, code: error instanceof CryptoError ? error.code : 'internal' };
        }
      }),
    );
    return { names };
  }

  async wrapRoomFileKey(args: { roomKey: KeyHandle; fileKey: KeyHandle; file: RoomFileRef }) {
    return { wrapped: await wrapRoomFileKey(await this.roomKeys(args.roomKey).derived, args.file, this.fileKey(args.fileKey)) };
  }

  async unwrapRoomFileKey(args: { roomKey: KeyHandle; file: RoomFileRef; wrapped: string }) {
    const key = await unwrapRoomFileKey(await this.roomKeys(args.roomKey).derived, args.file, args.wrapped);
    return { handle: this.issue({ kind: 'file-key', key, roomFile: true }) };
  }

  async sealRoomFileMetadata(args: { roomKey: KeyHandle; signingKey: KeyHandle; metadata: Omit<RoomFileMetadata, 'signerKeyId' | 'format'> }) {
    const signing = this.userKey(args.signingKey, 'signing');
    // The content field names the format: new uploads commit (2); a re-signing of an older file keeps its hash (1).
    const metadata = { ...args.metadata, format: args.metadata.contentCommitment === undefined ? 1 : 2, signerKeyId: signing.keyId } as RoomFileMetadata;
    return { sealed: await sealRoomFileMetadata(await this.roomKeys(args.roomKey).derived, metadata, signing.privateKey) };
  }

  async openRoomFileMetadata(args: { roomKey: KeyHandle; file: RoomFileRef; sealed: string }) {
    return openRoomFileMetadata(await this.roomKeys(args.roomKey).derived, args.file, args.sealed);
  }

  async verifyRoomFileMetadata(args: { signed: SignedRoomFileMetadata; signerPublicKey: string; expected: RoomMetadataExpectation }) {
    return verifyRoomFileMetadata(args.signed, await importPublicKey(fromBase64Url(args.signerPublicKey), 'signing'), args.expected);
  }

  async openRoomFilesMetadata(args: { roomKey: KeyHandle; items: { file: RoomFileRef; sealed: string }[] }) {
    const keys = await this.roomKeys(args.roomKey).derived;
    return { results: await eachSettled(args.items, (item) => openRoomFileMetadata(keys, item.file, item.sealed)) };
  }

  async verifyRoomFilesMetadata(args: { items: { signed: SignedRoomFileMetadata; signerPublicKey: string; expected: RoomMetadataExpectation }[] }) {
    const imported = new Map<string, Promise<CryptoKey>>();
    const keyOf = (publicKey: string) => {
      let key = imported.get(publicKey);
      if (!key) imported.set(publicKey, (key = importPublicKey(fromBase64Url(publicKey), 'signing')));
      return key;
    };
    return { results: await eachSettled(args.items, async (item) => verifyRoomFileMetadata(item.signed, await keyOf(item.signerPublicKey), item.expected)) };
  }

  async sealRoomComment({ roomKey, signingKey, ref, ...comment }: { roomKey: KeyHandle; signingKey: KeyHandle; ref: RoomCommentRef; text: string; writtenAt: string }) {
    return sealRoomComment(await this.roomKeys(roomKey).derived, ref, comment, this.userKey(signingKey, 'signing'));
  }

  async openRoomComments(args: { roomKey: KeyHandle; items: { ref: RoomCommentRef; text: string; signature: string; signerPublicKey: string }[] }) {
    const keys = await this.roomKeys(args.roomKey).derived;
    return { results: await eachSettled(args.items, async (item) => openRoomComment(keys, item.ref, item, await importPublicKey(fromBase64Url(item.signerPublicKey), 'signing'))) };
  }

  async signRoomKeyGrant(args: { signingKey: KeyHandle; roomId: string; epoch: number; recipientUserId: string; wrapped: WrappedFileKey; granterUserId: string; createdAt: string }) {
    const { signingKey, ...input } = args;
    const signing = this.userKey(signingKey, 'signing');
    return signRoomKeyGrant(input, { privateKey: signing.privateKey, keyId: signing.keyId });
  }

  async verifyRoomKeyGrant(args: { signed: SignedRoomKeyGrant; signerPublicKey: string; expected: RoomKeyGrantExpectation }) {
    return verifyRoomKeyGrant(args.signed, await importPublicKey(fromBase64Url(args.signerPublicKey), 'signing'), args.expected);
  }

  async signRoomMemberList(args: { signingKey: KeyHandle; roomId: string; version: number; members: RoomMemberEntry[]; signerUserId: string; createdAt: string }) {
    const { signingKey, ...input } = args;
    const signing = this.userKey(signingKey, 'signing');
    return signRoomMemberList(input, { privateKey: signing.privateKey, keyId: signing.keyId });
  }

  async verifyRoomMemberList(args: { signed: SignedRoomMemberList; signerPublicKey: string; expected: RoomMemberListExpectation }) {
    return verifyRoomMemberList(args.signed, await importPublicKey(fromBase64Url(args.signerPublicKey), 'signing'), args.expected);
  }

  async decryptDownload(args: DecryptDownloadArgs): Promise<{ bytes: number }> {
    const decoder = new StreamDecoder({
      ...this.decoderKey(args.fileKey, args, true),
      plaintextLength: args.plaintextLength,
      ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
    });
    const abort = new AbortController();
    const writer = new PlaintextPortWriter(args.sink as unknown as PortLike, () => abort.abort());
    abort.signal.addEventListener('abort', () => writer.interrupt());
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
      // Fresh buffers are what costs most here (Chromium zeroes and maps each one): the body is
      // read straight into a few reused record-aligned batches (BYOB where the body is a byte
      // stream, else copied), and the decoder opens whole records from them without copying.
      const fill = bodyFiller(response.body, (bytes) => {
        fetched += bytes;
        report(false);
      }, () => cancelledOr(new DownloadFailedError('The download was interrupted')));
      const header = await fill(new Uint8Array(STREAM_HEADER_BYTES).buffer);
      await decoder.push(header.view, emit);
      if (header.view.byteLength === STREAM_HEADER_BYTES) {
        const batchBytes = RECORDS_PER_BATCH * (decodeStreamHeader(header.view).recordSize + STREAM_TAG_BYTES);
        const pool: ArrayBuffer[] = [];
        // Reads run one after another (one body reader), each into the next pool slot.
        let reading: Promise<unknown> = Promise.resolve();
        const readTurn = (turn: number) => {
          const read = reading.then(() => fill(pool[turn] ?? new ArrayBuffer(batchBytes)));
          read.catch(() => undefined); // awaited in order below; a failure while decrypting is reported from there
          reading = read.catch(() => undefined);
          return read;
        };
        const ahead = [readTurn(0)];
        for (let turn = 0; ; turn = (turn + 1) % BATCH_POOL) {
          while (ahead.length <= READ_AHEAD_BATCHES) ahead.push(readTurn((turn + ahead.length) % BATCH_POOL));
          const batch = await (ahead.shift() as ReturnType<typeof readTurn>);
          pool[turn] = batch.buffer;
          if (batch.view.byteLength > 0) await decoder.push(batch.view, emit);
          await writer.flush();
          if (batch.view.byteLength < batchBytes) break;
        }
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

/**
 * Reads a response body into caller-owned buffers: `fill(buffer)` fills it completely, except at the
 * end of the body, and returns the view of what it wrote and the buffer (a BYOB read transfers the
 * buffer, so the returned one replaces the one passed in).
 */
function bodyFiller(
  body: ReadableStream<Uint8Array>,
  onBytes: (bytes: number) => void,
  readFailure: () => Error,
): (buffer: ArrayBuffer) => Promise<{ view: Uint8Array; buffer: ArrayBuffer }> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream in this runtime: chunks are copied in.
  }
  const reader = byob ? null : body.getReader();
  let leftover: Uint8Array = new Uint8Array(0);
  let ended = false;
  const read = async <T>(next: () => Promise<T>): Promise<T> => {
    try {
      return await next();
    } catch {
      throw readFailure();
    }
  };
  return async (buffer) => {
    let filled = 0;
    while (filled < buffer.byteLength && !ended) {
      if (byob) {
        const target = new Uint8Array(buffer, filled, buffer.byteLength - filled);
        const { done, value } = await read(() => (byob as ReadableStreamBYOBReader).read(target));
        if (value) buffer = value.buffer as ArrayBuffer;
        if (done) ended = true;
        if (value && value.byteLength > 0) {
          filled += value.byteLength;
          onBytes(value.byteLength);
        }
        continue;
      }
      if (leftover.byteLength === 0) {
        const { done, value } = await read(() => (reader as ReadableStreamDefaultReader<Uint8Array>).read());
        if (done) {
          ended = true;
          break;
        }
        leftover = value;
        onBytes(value.byteLength);
      }
      const take = Math.min(leftover.byteLength, buffer.byteLength - filled);
      new Uint8Array(buffer, filled, take).set(leftover.subarray(0, take));
      leftover = leftover.subarray(take);
      filled += take;
    }
    return { view: new Uint8Array(buffer, 0, filled), buffer };
  };
}
