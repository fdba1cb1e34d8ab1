// The crypto service's API as the page sees it (through the Worker proxy) and Node uses it directly:
// key handles in, structured-cloneable results out. The implementation is service.ts.
import type { ContactPinList, SealedContactPins } from './contact-pins';
import type { FileKeyBinding, WrappedFileKey } from './file-key';
import type { UserKeyUsage } from './keys';
import type { Manifest, SignedManifest } from './manifest';
import type { RoomFileMetadata, RoomFileRef, RoomItemKind, RoomMetadataExpectation, SignedRoomFileMetadata } from './room';
import type { RoomCommentOpened, RoomCommentRef } from './room-comments';
import type { RoomFolderLabels, RoomFolderLabelsOpened, RoomFolderLabelsRef, RoomFolderLabelsWire } from './room-folder-labels';
import type { RoomKeyGrant, RoomKeyGrantExpectation, SignedRoomKeyGrant } from './room-grant';
import type { RoomMemberEntry, RoomMemberList, RoomMemberListExpectation, SignedRoomMemberList } from './room-members';
import type { Argon2idParameters, SecuPassBlobV3 } from './secupass';
import type { ServiceWorkerDownloadKey } from './download-decrypt';

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

export interface UnlockedKeys {
  encryption: PublicKeyInfo;
  signing: PublicKeyInfo;
}

/** The whole API; every argument and result is structured-cloneable (streams are transferred). */
/** A byte range of a level-3/4 file to decrypt: the stream header, the plaintext range, the records that hold it. */
export interface DecryptRangeArgs {
  fileKey: KeyHandle;
  header: Uint8Array;
  plaintextLength: number;
  start: number;
  end: number;
  ciphertext: Uint8Array;
  expectedHeaderSha256?: string;
}

/** A level-3/4 download decrypted in the Worker (`CryptoApi.decryptDownload`): where to fetch, where the plaintext goes. */
export interface DecryptDownloadArgs {
  fileKey: KeyHandle;
  url: string;
  headers?: Record<string, string>;
  plaintextLength: number;
  expectedHeaderSha256?: string;
  /** base64url SHA-256 of the whole plaintext as signed (room metadata format 1). */
  expectedContentSha256?: string;
  /** base64url content commitment as signed (format 2); a data room file's key (unwrapRoomFileKey) needs one of the two. */
  expectedContentCommitment?: string;
  sink: MessagePort;
  control?: MessagePort;
}

export interface CryptoApi {
  setupSecuPass(args: { userId: string; passphrase: string; parameters?: Argon2idParameters }): Promise<{ blob: SecuPassBlobV3; keys: UnlockedKeys }>;
  /** `keepForSession`: also keep the keys for a reload of this tab (session-keep.ts); `kept` says whether a store took them. */
  unlockSecuPass(args: { userId: string; blob: unknown; passphrase: string; keepForSession?: { sessionTag: string } }): Promise<{ keys: UnlockedKeys; upgradedBlob?: SecuPassBlobV3; kept?: boolean }>;
  /** The keys kept for `userId` in this tab session (no passphrase), or null. */
  restoreKeptKeys(args: { userId: string; sessionTag: string }): Promise<{ keys: UnlockedKeys | null }>;
  /** Deletes the kept keys of `userId`, or of everyone (sign-out, expired session). */
  forgetKeptKeys(args: { userId?: string }): Promise<void>;
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
  /** The user's contact pins, signed with the own signing key and encrypted to the own encryption key (contact-pins.ts). */
  sealContactPins(args: { signingKey: KeyHandle; encryptionKey: KeyHandle; list: ContactPinList }): Promise<SealedContactPins>;
  /** Opens and verifies the own list (ContactPinsInvalidError otherwise). */
  openContactPins(args: { signingKey: KeyHandle; encryptionKey: KeyHandle; ownerUserId: string; sealed: SealedContactPins }): Promise<ContactPinList>;
  encryptStream(args: { fileKey: KeyHandle; plaintext: ReadableStream<Uint8Array>; recordSize?: number }): Promise<{ ciphertext: ReadableStream<Uint8Array> }>;
  decryptStream(args: {
    fileKey: KeyHandle;
    ciphertext: ReadableStream<Uint8Array>;
    plaintextLength?: number;
    expectedHeaderSha256?: string;
    /** base64url SHA-256 of the whole plaintext as signed (room metadata format 1). */
    expectedContentSha256?: string;
    /** base64url content commitment as signed (format 2); a data room file's key (unwrapRoomFileKey) needs one of the two. */
    expectedContentCommitment?: string;
  }): Promise<{ plaintext: ReadableStream<Uint8Array> }>;
  decryptRange(args: DecryptRangeArgs): Promise<{ plaintext: Uint8Array }>;
  /** base64url SHA-256 of a stream header, for the manifest. */
  headerSha256(args: { header: Uint8Array }): Promise<{ headerSha256: string }>;
  /**
   * Uploads (README "Upload parts"): the stream header derived from the file key, so the same key
   * always gives the same header and records (resume re-creates a part byte for byte).
   */
  uploadStreamHeader(args: { fileKey: KeyHandle; recordSize: number }): Promise<{ header: Uint8Array; headerSha256: string }>;
  /** Uploads: seals one run of records (a part) under the derived header; record 0's run starts with the header. */
  encryptRecordRun(args: { fileKey: KeyHandle; recordSize: number; firstRecord: number; plaintext: Uint8Array; final: boolean }): Promise<{ ciphertext: Uint8Array }>;
  /**
   * Uploads sealed where the key lives (README "Sealing an upload in the Worker"): `source` (a
   * File; a Blob crosses the Worker boundary as a reference) under the file key's derived header.
   * Returns an upload handle (released with `releaseHandle`, or with its file key) and the
   * ciphertext size. `commitContent`: also hash each record for the content commitment (`uploadContentCommitment`).
   */
  openUpload(args: { fileKey: KeyHandle; recordSize: number; source: Blob; commitContent?: boolean }): Promise<{ upload: KeyHandle; size: number; headerSha256: string }>;
  /**
   * Ciphertext bytes `[start, end)` of an open upload (a part), read from the source and sealed in
   * here; the buffer is transferred, not copied. Parts may be asked for at once and in any order.
   */
  sealUploadPart(args: { upload: KeyHandle; start: number; end: number }): Promise<{ ciphertext: Uint8Array }>;
  /**
   * The same part ready to PUT (what the uploads use): built in a part buffer the Worker reuses,
   * hashed there (`sha256`, hex, for `x-content-sha256`) and copied once into `body`, a Blob that
   * crosses to the page as a reference — no part bytes pass through the page.
   */
  sealUploadPartBody(args: { upload: KeyHandle; start: number; end: number }): Promise<{ body: Blob; size: number; sha256: string }>;
  /** base64url content commitment (README section 7) of an upload opened with `commitContent`, once every part was sealed. */
  uploadContentCommitment(args: { upload: KeyHandle }): Promise<{ contentCommitment: string }>;
  /**
   * Fetches a ciphertext (GET `url` with the browser's credentials and `headers`) and decrypts it
   * while it arrives, writing the plaintext into `sink` (plaintext-port.ts: transferred buffers,
   * a byte window for backpressure). In the browser this runs inside the crypto Worker, so
   * ciphertext and plaintext never pass through the page and the key never leaves the Worker.
   * `control` (optional) gets `progress` (ciphertext bytes) and takes `cancel`. Resolves with the
   * plaintext byte count once the last byte is handed to the port; rejects with the decoder's
   * error, DownloadFailedError or DownloadCancelledError (and the port's reader sees an error).
   */
  decryptDownload(args: DecryptDownloadArgs): Promise<{ bytes: number }>;
  /**
   * The download service worker decrypts a download itself (web/README "Downloads"): this file's
   * key as a non-extractable HKDF CryptoKey (it derives this file's content key and nothing else),
   * with the checks its reader must make. Never a private key, never another file's key.
   */
  serviceWorkerDownloadKey(args: { fileKey: KeyHandle; expectedContentSha256?: string; expectedContentCommitment?: string }): Promise<ServiceWorkerDownloadKey>;

  // ---- data rooms (room.ts, README "7. Data rooms"); room keys are handles like file keys ----
  generateRoomKey(): Promise<{ handle: KeyHandle }>;
  /** The member's copy: HPKE to their encryption key, binding (roomId, "room-key", their key id). */
  wrapRoomKey(args: { roomKey: KeyHandle; roomId: string; recipientPublicKey: string }): Promise<WrappedFileKey>;
  unwrapRoomKey(args: { privateKey: KeyHandle; roomId: string; wrapped: WrappedFileKey }): Promise<{ handle: KeyHandle }>;
  encryptRoomNames(args: { roomKey: KeyHandle; roomId: string; items: { kind: RoomItemKind; itemId: string; name: string }[] }): Promise<{ sealed: string[] }>;
  /** One result per item, in order: a name, or the error code of the one that does not decrypt (the rest still show). */
  decryptRoomNames(args: { roomKey: KeyHandle; roomId: string; items: { kind: RoomItemKind; itemId: string; sealed: string }[] }): Promise<{ names: RoomNameResult[] }>;
  /** Seals a file key (a file-key handle) under the room key for one file version. */
  wrapRoomFileKey(args: { roomKey: KeyHandle; fileKey: KeyHandle; file: RoomFileRef }): Promise<{ wrapped: string }>;
  /** A file-key handle (for decryptDownload, decryptStream, …); RoomFileKeyUnwrapError for a changed or swapped copy. */
  unwrapRoomFileKey(args: { roomKey: KeyHandle; file: RoomFileRef; wrapped: string }): Promise<{ handle: KeyHandle }>;
  /** Signs with the uploader's key (`signerKeyId` is set from it) and seals under the room key. */
  sealRoomFileMetadata(args: { roomKey: KeyHandle; signingKey: KeyHandle; metadata: Omit<RoomFileMetadata, 'signerKeyId' | 'format'> }): Promise<{ sealed: string }>;
  /** Decrypts and shape-checks; the caller then pin-checks the key `metadata.signerKeyId` names and calls verifyRoomFileMetadata. */
  openRoomFileMetadata(args: { roomKey: KeyHandle; file: RoomFileRef; sealed: string }): Promise<SignedRoomFileMetadata>;
  verifyRoomFileMetadata(args: { signed: SignedRoomFileMetadata; signerPublicKey: string; expected: RoomMetadataExpectation }): Promise<RoomFileMetadata>;
  /**
   * openRoomFileMetadata for a whole folder in ONE Worker call (a round trip per file costs more
   * than the decryption): one result per item, in order; one that fails carries its error code.
   */
  openRoomFilesMetadata(args: { roomKey: KeyHandle; items: { file: RoomFileRef; sealed: string }[] }): Promise<{ results: RoomBatchResult<SignedRoomFileMetadata>[] }>;
  /** verifyRoomFileMetadata for a whole folder in ONE Worker call (each signer key imported once); results as openRoomFilesMetadata's. */
  verifyRoomFilesMetadata(args: { items: { signed: SignedRoomFileMetadata; signerPublicKey: string; expected: RoomMetadataExpectation }[] }): Promise<{ results: RoomBatchResult<RoomFileMetadata>[] }>;
  /** Seals and signs a Secure room comment (room-comments.ts): the `text` and `signature` the comment routes take. */
  sealRoomComment(args: { roomKey: KeyHandle; signingKey: KeyHandle; ref: RoomCommentRef; text: string; writtenAt: string }): Promise<{ text: string; signature: string }>;
  /** Verifies (each author's pinned key) and opens a list of comments in ONE Worker call; a failed one is `room-comment-invalid`. */
  openRoomComments(args: { roomKey: KeyHandle; items: { ref: RoomCommentRef; text: string; signature: string; signerPublicKey: string }[] }): Promise<{ results: RoomBatchResult<RoomCommentOpened>[] }>;
  /** Seals and signs a Secure room folder's classification and status (room-folder-labels.ts): the `labels` and `signature` the server stores. */
  sealRoomFolderLabels(args: { roomKey: KeyHandle; signingKey: KeyHandle; ref: RoomFolderLabelsRef; labels: RoomFolderLabels }): Promise<RoomFolderLabelsWire>;
  /** Verifies (each signer's pinned key) and opens folders' labels in ONE Worker call; one result per item, a failed one with its code. */
  openRoomFolderLabels(args: { roomKey: KeyHandle; items: { ref: RoomFolderLabelsRef; labels: string; signature: string; signerPublicKey: string }[] }): Promise<{ results: RoomBatchResult<RoomFolderLabelsOpened>[] }>;
  /** The granter signs a room-key copy (room, epoch, recipient, the copy's hash; `signerKeyId` from the key): README section 7. */
  signRoomKeyGrant(args: { signingKey: KeyHandle; roomId: string; epoch: number; recipientUserId: string; wrapped: WrappedFileKey; granterUserId: string; createdAt: string }): Promise<SignedRoomKeyGrant>;
  /** RoomKeyGrantInvalidError unless it verifies with the granter's (pinned) key and names exactly this copy. */
  verifyRoomKeyGrant(args: { signed: SignedRoomKeyGrant; signerPublicKey: string; expected: RoomKeyGrantExpectation }): Promise<RoomKeyGrant>;
  /** An OWNER signs the room's member list (roles and the key ids she checked; `signerKeyId` from the key): README section 7. */
  signRoomMemberList(args: { signingKey: KeyHandle; roomId: string; version: number; members: RoomMemberEntry[]; signerUserId: string; createdAt: string }): Promise<SignedRoomMemberList>;
  /** RoomMemberListInvalidError unless it verifies with the signer's (pinned) key, is signed by an OWNER it lists and is for this room. */
  verifyRoomMemberList(args: { signed: SignedRoomMemberList; signerPublicKey: string; expected: RoomMemberListExpectation }): Promise<RoomMemberList>;
}

export type RoomNameResult = { ok: true; name: string } | { ok: false; code: string };
export type RoomBatchResult<T> = { ok: true; value: T } | { ok: false; code: string };
