// Every failure of shared/crypto has its own class and a stable `code`, so callers (and the Worker
// proxy, which rebuilds errors from their code) can tell them apart without parsing messages.
// IMPORTANT: messages never contain key bytes, passphrases or plaintext.

export abstract class CryptoError extends Error {
  abstract readonly code: string;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

// ---- streaming format (see README "Streaming format") ----

/** Magic, version, algorithm or record size of the header is not ours, or the stream ends inside the header. */
export class StreamHeaderInvalidError extends CryptoError {
  readonly code = 'stream-header-invalid';
}
/** The header differs from the one the signed manifest names (its SHA-256 does not match). */
export class StreamHeaderMismatchError extends CryptoError {
  readonly code = 'stream-header-mismatch';
}
/** The stream stops before its final record (records cut off at the end, or a record cut short). */
export class StreamTruncatedError extends CryptoError {
  readonly code = 'stream-truncated';
}
/** A record is missing in the middle: position i holds record i+1 and record i never comes. */
export class StreamRecordMissingError extends CryptoError {
  readonly code = 'stream-record-missing';
}
/** Two records changed places: position i holds a later record and record i follows it. */
export class StreamRecordReorderedError extends CryptoError {
  readonly code = 'stream-record-reordered';
}
/** A record that was already read comes again. */
export class StreamRecordDuplicatedError extends CryptoError {
  readonly code = 'stream-record-duplicated';
}
/** A whole valid record (a copy of one of this stream's records) follows the final record. */
export class StreamRecordAppendedError extends CryptoError {
  readonly code = 'stream-record-appended';
}
/** Bytes that are not a record of this stream follow the final record. */
export class StreamTrailingDataError extends CryptoError {
  readonly code = 'stream-trailing-data';
}
/** A non-empty file ends with an empty final record (only the empty file may have one, as record 0). */
export class StreamEmptyFinalRecordError extends CryptoError {
  readonly code = 'stream-empty-final-record';
}
/** A record fails authentication: a flipped bit in header salt/nonce prefix, body or tag, or the wrong key. */
export class StreamRecordCorruptedError extends CryptoError {
  readonly code = 'stream-record-corrupted';
}
/** The whole plaintext decrypted, but its SHA-256 is not the signed one (a data room file's `contentSha256`). */
export class StreamContentMismatchError extends CryptoError {
  readonly code = 'stream-content-mismatch';
}
/** A plaintext/ciphertext range asked for lies outside the file. */
export class StreamRangeError extends CryptoError {
  readonly code = 'stream-range-invalid';
}

// ---- SecuPass ----

/** The passphrase does not open the blob (or the blob was tampered with: indistinguishable by design). */
export class WrongPassphraseError extends CryptoError {
  readonly code = 'secupass-wrong-passphrase';
}
/** KDF parameters below the floor or above the ceiling: a server must not be able to downgrade or exhaust us. */
export class KdfParametersRejectedError extends CryptoError {
  readonly code = 'secupass-kdf-parameters-rejected';
}
/** The blob is not a SecuPass blob of a version we read. */
export class SecuPassBlobInvalidError extends CryptoError {
  readonly code = 'secupass-blob-invalid';
}

// ---- keys, file keys, manifests ----

/** A key handle is unknown (never issued, released, or the keyring was locked). */
export class KeyHandleUnknownError extends CryptoError {
  readonly code = 'key-handle-unknown';
}
/** A key handle exists but is of the wrong kind for the operation (e.g. a signing key used to decrypt). */
export class KeyHandleKindError extends CryptoError {
  readonly code = 'key-handle-kind';
}
/** A public key is not a valid P-256 SPKI. */
export class PublicKeyInvalidError extends CryptoError {
  readonly code = 'public-key-invalid';
}
/** An HPKE-wrapped file key does not open with this key and binding (wrong recipient, file or context). */
export class FileKeyUnwrapError extends CryptoError {
  readonly code = 'file-key-unwrap-failed';
}
/** A contact's key differs from the pinned one and was not confirmed by the user. */
export class ContactKeyChangedError extends CryptoError {
  readonly code = 'contact-key-changed';
  constructor(
    message: string,
    /** Both fingerprints (hex), for the "key changed" dialog; absent where only the fact is known. */
    readonly change?: { email: string; userUuid: string; usage: 'encryption' | 'signing'; pinnedFingerprint: string; presentedFingerprint: string },
  ) {
    super(message);
  }
}
/** A manifest's signature does not verify with the signer's key. */
export class ManifestSignatureError extends CryptoError {
  readonly code = 'manifest-signature-invalid';
}
/** A manifest cannot be put in canonical form (non-integer numbers, non-plain objects, …). */
export class ManifestFormatError extends CryptoError {
  readonly code = 'manifest-invalid';
}

/** The user's contact pin list does not open, verify or belong to this user (the server changed or swapped it). */
export class ContactPinsInvalidError extends CryptoError {
  readonly code = 'contact-pins-invalid';
}
/** The server handed out an older contact pin list than this device has seen (rollback), or dropped it. */
export class ContactPinsRolledBackError extends CryptoError {
  readonly code = 'contact-pins-rolled-back';
}

// ---- data rooms (room.ts, README "7. Data rooms") ----

/** A sealed room/folder/file name does not decrypt for its item: changed, or moved from another item. */
export class RoomNameInvalidError extends CryptoError {
  readonly code = 'room-name-invalid';
}
/** A Secure room comment does not open or its signature does not verify for this item and author: changed, moved or forged. */
export class RoomCommentInvalidError extends CryptoError {
  readonly code = 'room-comment-invalid';
}
/** A file key sealed under the room key does not open for this file and version: changed or swapped. */
export class RoomFileKeyUnwrapError extends CryptoError {
  readonly code = 'room-file-key-unwrap-failed';
}
/** Sealed file metadata does not decrypt for this file and version, or is not of our format. */
export class RoomMetadataInvalidError extends CryptoError {
  readonly code = 'room-metadata-invalid';
}
/** The file metadata signature does not verify with the uploader's signing key. */
export class RoomMetadataSignatureError extends CryptoError {
  readonly code = 'room-metadata-signature-invalid';
}
/** The signed metadata names another room, file, version, name, size or uploader than the one shown. */
export class RoomMetadataMismatchError extends CryptoError {
  readonly code = 'room-metadata-mismatch';
}
/**
 * The key that signed the file metadata verifies, but its holder may not write in the room (a VIEWER
 * or PREVIEWER re-signed it: README section 7 "The signer of a file").
 */
export class RoomSignerNotWriterError extends CryptoError {
  readonly code = 'room-signer-not-writer';
}
/**
 * The metadata is bound to a member list version (`memberListVersion`) in which its signer was not
 * OWNER or EDITOR, or not a member at all (README section 7 "Roles at signing time").
 */
export class RoomSignerNotWriterThenError extends CryptoError {
  readonly code = 'room-signer-not-writer-then';
}
/**
 * The metadata is bound to a member list version the reader cannot get verified: newer than the
 * newest list she has, or one the server does not hand out (README section 7 "Roles at signing time").
 */
export class RoomMemberListVersionUnknownError extends CryptoError {
  readonly code = 'room-member-list-version-unknown';
}
/**
 * A room-key copy whose grant is missing, malformed, not signed by the granter's pinned key, or
 * names another room, epoch, recipient or copy: never used to encrypt (README section 7).
 */
export class RoomKeyGrantInvalidError extends CryptoError {
  readonly code = 'room-key-grant-invalid';
}
/** A file's versions do not chain: a counter that does not increase, or a previous hash that is not the previous version's (README section 7). */
export class RoomVersionChainError extends CryptoError {
  readonly code = 'room-version-chain-broken';
}
/** The server hands out an older signed state of a file as current than one of the user's devices saw (rollback, README section 7). */
export class RoomVersionRolledBackError extends CryptoError {
  readonly code = 'room-version-rolled-back';
}

/**
 * A signed member list that is malformed, not signed by an OWNER it lists with her (pinned) key,
 * for another room or older than one seen before (README section 7 "the signed member list").
 */
export class RoomMemberListInvalidError extends CryptoError {
  readonly code = 'room-member-list-invalid';
}
/**
 * The server serves an older member list as the latest than one of the user's devices accepted
 * (the highest version seen, kept in her synced contact pin list: README section 7).
 */
export class RoomMemberListRolledBackError extends CryptoError {
  readonly code = 'room-member-list-rolled-back';
}

// ---- downloads decrypted in the Worker (service.ts decryptDownload) ----

/** The ciphertext could not be fetched (no answer, or an HTTP error; the status is in the message). */
export class DownloadFailedError extends CryptoError {
  readonly code = 'download-failed';
}
/** The download was cancelled (by the page, or by whoever reads the plaintext port). */
export class DownloadCancelledError extends CryptoError {
  readonly code = 'download-cancelled';
}

type CryptoErrorClass = new (message: string) => CryptoError;

const ERROR_CLASSES: CryptoErrorClass[] = [
  StreamHeaderInvalidError,
  StreamHeaderMismatchError,
  StreamTruncatedError,
  StreamRecordMissingError,
  StreamRecordReorderedError,
  StreamRecordDuplicatedError,
  StreamRecordAppendedError,
  StreamTrailingDataError,
  StreamEmptyFinalRecordError,
  StreamRecordCorruptedError,
  StreamRangeError,
  WrongPassphraseError,
  KdfParametersRejectedError,
  SecuPassBlobInvalidError,
  KeyHandleUnknownError,
  KeyHandleKindError,
  PublicKeyInvalidError,
  FileKeyUnwrapError,
  ContactKeyChangedError,
  ManifestSignatureError,
  ManifestFormatError,
  ContactPinsInvalidError,
  ContactPinsRolledBackError,
  DownloadFailedError,
  DownloadCancelledError,
  RoomNameInvalidError,
  RoomCommentInvalidError,
  RoomFileKeyUnwrapError,
  RoomMetadataInvalidError,
  RoomMetadataSignatureError,
  RoomMetadataMismatchError,
  RoomSignerNotWriterError,
  RoomSignerNotWriterThenError,
  RoomMemberListVersionUnknownError,
  RoomKeyGrantInvalidError,
  RoomVersionChainError,
  RoomVersionRolledBackError,
  RoomMemberListInvalidError,
  RoomMemberListRolledBackError,
];

const CLASS_BY_CODE = new Map<string, CryptoErrorClass>(ERROR_CLASSES.map((cls) => [new cls('').code, cls]));

/** Every error code shared/crypto can raise. */
export const CRYPTO_ERROR_CODES: readonly string[] = [...CLASS_BY_CODE.keys()];

/** Rebuilds an error from its code (used by the Worker proxy); unknown codes give a plain Error. */
export function cryptoErrorFromCode(code: string, message: string): Error {
  const cls = CLASS_BY_CODE.get(code);
  return cls ? new cls(message) : new Error(message);
}
