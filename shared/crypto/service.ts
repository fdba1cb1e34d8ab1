// The handle-based crypto API. In Node it is used directly (createCryptoService); in the browser it
// runs inside ONE dedicated Worker (worker.ts) and the page talks to it through createCryptoProxy.
// Either way callers hold opaque key handles, never key bytes.
import { fromBase64Url, toBase64Url, toHex } from './bytes';
import { CryptoError, DownloadCancelledError, KeyHandleKindError, KeyHandleUnknownError } from './errors';
import { generateFileKey, unwrapFileKey, wrapFileKey, type FileKeyBinding, type WrappedFileKey } from './file-key';
import { fingerprintOf, formatFingerprint, importPublicKey, keyIdOf, type UserKeyPair, type UserKeyUsage } from './keys';
import { signManifest, verifyManifest, type Manifest, type SignedManifest } from './manifest';
import { signRoomMemberList, verifyRoomMemberList, type RoomMemberEntry, type RoomMemberListExpectation, type SignedRoomMemberList } from './room-members';
import { openRoomComment, sealRoomComment, type RoomCommentRef } from './room-comments';
import { openRoomFolderLabels, sealRoomFolderLabels, type RoomFolderLabels, type RoomFolderLabelsRef } from './room-folder-labels';
import { signRoomKeyGrant, verifyRoomKeyGrant, type RoomKeyGrantExpectation, type SignedRoomKeyGrant } from './room-grant';
import { openContactPins, sealContactPins, type ContactPinList, type SealedContactPins } from './contact-pins';
import { changeSecuPass, setupSecuPass, unlockSecuPass, type Argon2idParameters } from './secupass';
import { PlaintextPortWriter, PortCancelledError, type PortLike } from './plaintext-port';
import { createDecryptStream } from './stream-decoder';
import { fetchAndDecrypt, serviceWorkerDownloadKey, type ServiceWorkerDownloadKey } from './download-decrypt';
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

  async sealRoomFolderLabels(args: { roomKey: KeyHandle; signingKey: KeyHandle; ref: RoomFolderLabelsRef; labels: RoomFolderLabels }) {
    return sealRoomFolderLabels(await this.roomKeys(args.roomKey).derived, args.ref, args.labels, this.userKey(args.signingKey, 'signing'));
  }

  async openRoomFolderLabels(args: { roomKey: KeyHandle; items: { ref: RoomFolderLabelsRef; labels: string; signature: string; signerPublicKey: string }[] }) {
    const keys = await this.roomKeys(args.roomKey).derived;
    return { results: await eachSettled(args.items, async (item) => openRoomFolderLabels(keys, item.ref, item, await importPublicKey(fromBase64Url(item.signerPublicKey), 'signing'))) };
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
    const abort = new AbortController();
    const writer = new PlaintextPortWriter(args.sink as unknown as PortLike, () => abort.abort());
    abort.signal.addEventListener('abort', () => writer.interrupt());
    const control = args.control;
    if (control) control.onmessage = (event: MessageEvent<DownloadControlMessage>) => event.data?.type === 'cancel' && abort.abort();
    let fetched = 0;
    let totalBytes = 0;
    let reportedAt = 0;
    const report = (force: boolean) => {
      if (!control || (!force && Date.now() - reportedAt < PROGRESS_INTERVAL_MS)) return;
      reportedAt = Date.now();
      control.postMessage({ type: 'progress', bytes: fetched, totalBytes } satisfies DownloadControlMessage);
    };
    try {
      await fetchAndDecrypt({
        decoder: {
          ...this.decoderKey(args.fileKey, args, true),
          plaintextLength: args.plaintextLength,
          ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
        },
        url: args.url,
        ...(args.headers ? { headers: args.headers } : {}),
        signal: abort.signal,
        writer,
        onResponse: (total) => {
          totalBytes = total;
          report(true);
        },
        onBytes: (bytes) => {
          fetched += bytes;
          report(false);
        },
      });
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

  /** One file's key for the download service worker (download-decrypt.ts): non-extractable, this file only. */
  async serviceWorkerDownloadKey(args: { fileKey: KeyHandle; expectedContentSha256?: string; expectedContentCommitment?: string }): Promise<ServiceWorkerDownloadKey> {
    const { fileKey, headerDerivedFromKey } = this.decoderKey(args.fileKey, args, true);
    return serviceWorkerDownloadKey(fileKey, {
      headerDerivedFromKey: headerDerivedFromKey === true,
      ...(args.expectedContentSha256 === undefined ? {} : { expectedContentSha256: args.expectedContentSha256 }),
      ...(args.expectedContentCommitment === undefined ? {} : { expectedContentCommitment: args.expectedContentCommitment }),
    });
  }
}

export function createCryptoService(): CryptoApi {
  return new CryptoService();
}
