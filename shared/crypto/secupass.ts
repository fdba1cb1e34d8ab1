// SecuPass: the personal passphrase that wraps a user's private keys (DESIGN §3, README "SecuPass").
// v3: Argon2id → HKDF-SHA256 → key-encryption key → AES-256-GCM per private key (PKCS8), AD `userId|keyId|v3`.
// v2 (PBKDF2-SHA256) is only read, and re-wrapped as v3 on unlock.
import { argon2id } from 'hash-wasm';
import { fromBase64Url, toBase64Url, utf8Encode } from './bytes';
import { KdfParametersRejectedError, SecuPassBlobInvalidError, WrongPassphraseError } from './errors';
import { generateWrappableKeyPair, importUserKeyPair, keyIdOf, type UserKeyPair, type UserKeyUsage } from './keys';
import { aesGcmDecrypt, aesGcmEncrypt, hkdfSha256, importAesGcmKey, randomBytes, subtle } from './subtle';

export interface Argon2idParameters {
  /** Memory in KiB (hash-wasm's `memorySize`). */
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

/** v3 parameters (DESIGN §3): 64 MiB, 3 passes, 1 lane. */
export const SECUPASS_V3_PARAMETERS: Readonly<Argon2idParameters> = { memoryKiB: 64 * 1024, iterations: 3, parallelism: 1 };
/** Nothing weaker is accepted, so a server cannot hand out a cheaper-to-crack blob. */
export const SECUPASS_V3_FLOOR: Readonly<Argon2idParameters> = SECUPASS_V3_PARAMETERS;
/** Nothing heavier is accepted, so a server cannot freeze or crash the browser (wasm memory, time). */
export const SECUPASS_V3_CEILING: Readonly<Argon2idParameters> = { memoryKiB: 256 * 1024, iterations: 12, parallelism: 4 };
export const SECUPASS_SALT_BYTES = 16;
/** v2 (read only) PBKDF2-SHA256 iteration bounds: the floor stops downgrades, the ceiling stops hangs. */
export const SECUPASS_V2_MIN_ITERATIONS = 100_000;
export const SECUPASS_V2_MAX_ITERATIONS = 5_000_000;
/** HKDF info of the v3 key-encryption key. */
export const SECUPASS_V3_KEK_INFO = utf8Encode('Kuvert SecuPass v3 key-encryption key');
const AES_GCM_IV_BYTES = 12;

/** One wrapped private key. All binary fields base64url without padding. */
export interface WrappedPrivateKey {
  keyId: string;
  usage: UserKeyUsage;
  /** SPKI of the matching public key (public; lets unlock check the pair). */
  publicKey: string;
  iv: string;
  /** AES-256-GCM(PKCS8) with its 16-byte tag appended. */
  wrappedKey: string;
}

export interface SecuPassBlobV3 {
  version: 3;
  kdf: { name: 'argon2id'; memoryKiB: number; iterations: number; parallelism: number; salt: string };
  keys: WrappedPrivateKey[];
}

export interface SecuPassBlobV2 {
  version: 2;
  kdf: { name: 'pbkdf2-sha256'; iterations: number; salt: string };
  keys: WrappedPrivateKey[];
}

export type SecuPassBlob = SecuPassBlobV2 | SecuPassBlobV3;

/** Private key material while it is being (re-)wrapped. IMPORTANT: secret; zeroed after use. */
export interface PlainPrivateKey {
  keyId: string;
  usage: UserKeyUsage;
  pkcs8: Uint8Array;
  publicKeySpki: Uint8Array;
}

export interface UnlockResult {
  keys: UserKeyPair[];
  /** Set when the blob was older than v3: the caller uploads it to replace the old one. */
  upgradedBlob?: SecuPassBlobV3;
}

/** Passphrases are compared as NFC so the same words typed on different systems give the same key. */
function passphraseBytes(passphrase: string): Uint8Array {
  return utf8Encode(passphrase.normalize('NFC'));
}

function associatedData(userId: string, keyId: string, version: 2 | 3): Uint8Array {
  return utf8Encode(`${userId}|${keyId}|v${version}`);
}

export function assertArgon2idParameters(parameters: Argon2idParameters): void {
  const { memoryKiB, iterations, parallelism } = parameters;
  const inRange = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
  if (
    !inRange(memoryKiB, SECUPASS_V3_FLOOR.memoryKiB, SECUPASS_V3_CEILING.memoryKiB) ||
    !inRange(iterations, SECUPASS_V3_FLOOR.iterations, SECUPASS_V3_CEILING.iterations) ||
    !inRange(parallelism, SECUPASS_V3_FLOOR.parallelism, SECUPASS_V3_CEILING.parallelism)
  ) {
    throw new KdfParametersRejectedError(`Argon2id parameters m=${memoryKiB} t=${iterations} p=${parallelism} are outside the accepted range`);
  }
}

/** Argon2id(passphrase) → HKDF-SHA256 → non-extractable AES-256-GCM key-encryption key. */
export async function deriveV3KeyEncryptionKey(passphrase: string, kdf: SecuPassBlobV3['kdf']): Promise<CryptoKey> {
  assertArgon2idParameters(kdf);
  const salt = decodeField(kdf.salt, 'kdf.salt');
  if (salt.length !== SECUPASS_SALT_BYTES) throw new KdfParametersRejectedError(`The salt must be ${SECUPASS_SALT_BYTES} bytes`);
  const stretched = await argon2id({
    password: passphraseBytes(passphrase),
    salt,
    memorySize: kdf.memoryKiB,
    iterations: kdf.iterations,
    parallelism: kdf.parallelism,
    hashLength: 32,
    outputType: 'binary',
  });
  const kekBytes = await hkdfSha256({ ikm: stretched, salt: new Uint8Array(0), info: SECUPASS_V3_KEK_INFO, length: 32 });
  stretched.fill(0);
  const kek = await importAesGcmKey(kekBytes);
  kekBytes.fill(0);
  return kek;
}

async function deriveV2KeyEncryptionKey(passphrase: string, kdf: SecuPassBlobV2['kdf']): Promise<CryptoKey> {
  if (!Number.isInteger(kdf.iterations) || kdf.iterations < SECUPASS_V2_MIN_ITERATIONS || kdf.iterations > SECUPASS_V2_MAX_ITERATIONS) {
    throw new KdfParametersRejectedError(`PBKDF2 iterations ${kdf.iterations} are outside the accepted range`);
  }
  const salt = decodeField(kdf.salt, 'kdf.salt');
  const base = await subtle().importKey('raw', passphraseBytes(passphrase) as Uint8Array<ArrayBuffer>, 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations: kdf.iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function wrapKeys(kek: CryptoKey, userId: string, version: 2 | 3, keys: PlainPrivateKey[]): Promise<WrappedPrivateKey[]> {
  const wrapped: WrappedPrivateKey[] = [];
  for (const key of keys) {
    const iv = randomBytes(AES_GCM_IV_BYTES);
    const ciphertext = await aesGcmEncrypt({ key: kek, iv, plaintext: key.pkcs8, additionalData: associatedData(userId, key.keyId, version) });
    wrapped.push({ keyId: key.keyId, usage: key.usage, publicKey: toBase64Url(key.publicKeySpki), iv: toBase64Url(iv), wrappedKey: toBase64Url(ciphertext) });
  }
  return wrapped;
}

async function unwrapKeys(kek: CryptoKey, userId: string, version: 2 | 3, keys: WrappedPrivateKey[]): Promise<PlainPrivateKey[]> {
  const plain: PlainPrivateKey[] = [];
  for (const key of keys) {
    const pkcs8 = await aesGcmDecrypt({
      key: kek,
      iv: decodeField(key.iv, 'iv'),
      ciphertext: decodeField(key.wrappedKey, 'wrappedKey'),
      additionalData: associatedData(userId, key.keyId, version),
    });
    if (!pkcs8) {
      zero(plain);
      throw new WrongPassphraseError('The passphrase is wrong');
    }
    const publicKeySpki = decodeField(key.publicKey, 'publicKey');
    if ((await keyIdOf(publicKeySpki)) !== key.keyId) {
      zero([...plain, { ...key, pkcs8, publicKeySpki }]);
      throw new SecuPassBlobInvalidError('A key id does not match its public key');
    }
    plain.push({ keyId: key.keyId, usage: key.usage, pkcs8, publicKeySpki });
  }
  return plain;
}

function zero(keys: PlainPrivateKey[]): void {
  for (const key of keys) key.pkcs8.fill(0);
}

async function buildV3Blob(userId: string, passphrase: string, keys: PlainPrivateKey[], parameters: Argon2idParameters): Promise<SecuPassBlobV3> {
  const kdf: SecuPassBlobV3['kdf'] = { name: 'argon2id', ...parameters, salt: toBase64Url(randomBytes(SECUPASS_SALT_BYTES)) };
  const kek = await deriveV3KeyEncryptionKey(passphrase, kdf);
  return { version: 3, kdf, keys: await wrapKeys(kek, userId, 3, keys) };
}

async function importAll(keys: PlainPrivateKey[]): Promise<UserKeyPair[]> {
  try {
    return await Promise.all(keys.map((key) => importUserKeyPair(key)));
  } finally {
    zero(keys);
  }
}

/** Opens a blob of any readable version to the transient PKCS8 of its keys. */
async function openBlob(userId: string, blob: unknown, passphrase: string): Promise<{ version: 2 | 3; keys: PlainPrivateKey[] }> {
  const checked = parseSecuPassBlob(blob);
  if (checked.version === 3) {
    const kek = await deriveV3KeyEncryptionKey(passphrase, checked.kdf);
    return { version: 3, keys: await unwrapKeys(kek, userId, 3, checked.keys) };
  }
  const kek = await deriveV2KeyEncryptionKey(passphrase, checked.kdf);
  return { version: 2, keys: await unwrapKeys(kek, userId, 2, checked.keys) };
}

/** First passphrase: new ECDH and ECDSA key pairs, wrapped in a v3 blob; returns the unlocked keys too. */
export async function setupSecuPass(options: {
  userId: string;
  passphrase: string;
  parameters?: Argon2idParameters;
}): Promise<{ blob: SecuPassBlobV3; keys: UserKeyPair[] }> {
  const parameters = options.parameters ?? SECUPASS_V3_PARAMETERS;
  assertArgon2idParameters(parameters);
  const plain: PlainPrivateKey[] = [];
  for (const usage of ['encryption', 'signing'] as const) {
    const generated = await generateWrappableKeyPair(usage);
    plain.push({ usage, keyId: await keyIdOf(generated.publicKeySpki), ...generated });
  }
  try {
    const blob = await buildV3Blob(options.userId, options.passphrase, plain, parameters);
    return { blob, keys: await importAll(plain) };
  } finally {
    zero(plain);
  }
}

/**
 * Unlocks the private keys (non-extractable); upgrades a v2 blob to v3 (returned for upload).
 * `keep` sees the transient PKCS8 before it is zeroed (session-keep.ts wraps it for a reload).
 */
export async function unlockSecuPass(options: { userId: string; blob: unknown; passphrase: string; keep?: (keys: readonly PlainPrivateKey[]) => Promise<void> }): Promise<UnlockResult> {
  const opened = await openBlob(options.userId, options.blob, options.passphrase);
  try {
    if (options.keep) await options.keep(opened.keys);
    const upgradedBlob = opened.version === 3 ? undefined : await buildV3Blob(options.userId, options.passphrase, opened.keys, SECUPASS_V3_PARAMETERS);
    const keys = await importAll(opened.keys);
    return upgradedBlob ? { keys, upgradedBlob } : { keys };
  } finally {
    zero(opened.keys);
  }
}

/** New passphrase, same key pairs: re-wraps under a new salt and key (the old passphrase must open the blob). */
export async function changeSecuPass(options: {
  userId: string;
  blob: unknown;
  currentPassphrase: string;
  newPassphrase: string;
}): Promise<{ blob: SecuPassBlobV3; keys: UserKeyPair[] }> {
  const opened = await openBlob(options.userId, options.blob, options.currentPassphrase);
  try {
    const blob = await buildV3Blob(options.userId, options.newPassphrase, opened.keys, SECUPASS_V3_PARAMETERS);
    return { blob, keys: await importAll(opened.keys) };
  } finally {
    zero(opened.keys);
  }
}

/**
 * Writes a v2 blob. NB: production never writes v2; this exists so migration can be tested and
 * tools can build fixtures of the legacy format.
 */
export async function writeLegacyV2Blob(options: {
  userId: string;
  passphrase: string;
  iterations: number;
  keys: { usage: UserKeyUsage; pkcs8: Uint8Array; publicKeySpki: Uint8Array }[];
}): Promise<SecuPassBlobV2> {
  const kdf: SecuPassBlobV2['kdf'] = { name: 'pbkdf2-sha256', iterations: options.iterations, salt: toBase64Url(randomBytes(SECUPASS_SALT_BYTES)) };
  const kek = await deriveV2KeyEncryptionKey(options.passphrase, kdf);
  const plain = await Promise.all(options.keys.map(async (key) => ({ ...key, pkcs8: key.pkcs8.slice(), keyId: await keyIdOf(key.publicKeySpki) })));
  try {
    return { version: 2, kdf, keys: await wrapKeys(kek, options.userId, 2, plain) };
  } finally {
    zero(plain);
  }
}

// ---- shape checks (the blob comes from the server, so it is untrusted input) ----

function decodeField(value: string, field: string): Uint8Array {
  try {
    return fromBase64Url(value);
  } catch (_error) {
    throw new SecuPassBlobInvalidError(`Field ${field} is not base64url`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseWrappedKeys(value: unknown): WrappedPrivateKey[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 16) throw new SecuPassBlobInvalidError('keys must be a non-empty list');
  return value.map((entry) => {
    if (!isRecord(entry)) throw new SecuPassBlobInvalidError('A key entry is not an object');
    const { keyId, usage, publicKey, iv, wrappedKey } = entry;
    if (typeof keyId !== 'string' || typeof publicKey !== 'string' || typeof iv !== 'string' || typeof wrappedKey !== 'string') {
      throw new SecuPassBlobInvalidError('A key entry lacks keyId, publicKey, iv or wrappedKey');
    }
    if (usage !== 'encryption' && usage !== 'signing') throw new SecuPassBlobInvalidError('A key entry has an unknown usage');
    return { keyId, usage, publicKey, iv, wrappedKey };
  });
}

/** Checks the shape of a blob (not its secrets). */
export function parseSecuPassBlob(blob: unknown): SecuPassBlob {
  if (!isRecord(blob) || !isRecord(blob.kdf)) throw new SecuPassBlobInvalidError('Not a SecuPass blob');
  const kdf = blob.kdf;
  if (typeof kdf.salt !== 'string') throw new SecuPassBlobInvalidError('kdf.salt missing');
  if (blob.version === 3 && kdf.name === 'argon2id') {
    const { memoryKiB, iterations, parallelism } = kdf;
    if (typeof memoryKiB !== 'number' || typeof iterations !== 'number' || typeof parallelism !== 'number') {
      throw new SecuPassBlobInvalidError('kdf parameters missing');
    }
    return { version: 3, kdf: { name: 'argon2id', memoryKiB, iterations, parallelism, salt: kdf.salt }, keys: parseWrappedKeys(blob.keys) };
  }
  if (blob.version === 2 && kdf.name === 'pbkdf2-sha256') {
    if (typeof kdf.iterations !== 'number') throw new SecuPassBlobInvalidError('kdf.iterations missing');
    return { version: 2, kdf: { name: 'pbkdf2-sha256', iterations: kdf.iterations, salt: kdf.salt }, keys: parseWrappedKeys(blob.keys) };
  }
  throw new SecuPassBlobInvalidError('Unsupported SecuPass version');
}
