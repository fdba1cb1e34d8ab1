import { createHash, createPublicKey } from 'node:crypto';
import type { PublicKey, SetSecuPassBody } from '@shared/contract/secupass';

/**
 * Shape checks of an uploaded SecuPass (the server cannot open the blob; it checks that
 * what it stores is consistent and not weaker than v3). Each returns the problems found,
 * empty when the body is acceptable.
 */

/** v3 Argon2id floor (DESIGN §3; shared/crypto SECUPASS_V3_FLOOR): nothing cheaper to crack is stored. */
export const SECUPASS_V3_KDF_FLOOR = { memoryKiB: 64 * 1024, iterations: 3, parallelism: 1 } as const;
/** v3 ceiling (shared/crypto SECUPASS_V3_CEILING): a blob above it would never open in a browser. */
export const SECUPASS_V3_KDF_CEILING = { memoryKiB: 256 * 1024, iterations: 12, parallelism: 4 } as const;
const SALT_BYTES = 16;
/** Key ids are base64url of the first 16 bytes of SHA-256(SPKI) (shared/crypto keys.ts keyIdOf). */
const KEY_ID_BYTES = 16;

export interface BodyProblem {
  path: string;
  message: string;
}

/** SHA-256 hex of the SPKI bytes: the fingerprint users compare. */
export function fingerprintOf(spkiBase64Url: string): string {
  return createHash('sha256').update(Buffer.from(spkiBase64Url, 'base64url')).digest('hex');
}

function keyIdOf(spkiBase64Url: string): string {
  return createHash('sha256').update(Buffer.from(spkiBase64Url, 'base64url')).digest().subarray(0, KEY_ID_BYTES).toString('base64url');
}

function isP256Spki(spkiBase64Url: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(spkiBase64Url, 'base64url'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** Canonical form of a key for set comparisons. */
export const keySignature = (key: Pick<PublicKey, 'keyId' | 'usage' | 'publicKey'>) => `${key.keyId}|${key.usage}|${key.publicKey}`;

export function sameKeySet(a: readonly Pick<PublicKey, 'keyId' | 'usage' | 'publicKey'>[], b: readonly Pick<PublicKey, 'keyId' | 'usage' | 'publicKey'>[]): boolean {
  const left = new Set(a.map(keySignature));
  const right = new Set(b.map(keySignature));
  return left.size === right.size && [...left].every((k) => right.has(k));
}

/** Problems of a POST/PUT body: version, KDF parameters, salt, key ids, key set. */
export function secuPassBodyProblems(body: SetSecuPassBody): BodyProblem[] {
  const problems: BodyProblem[] = [];
  const { blob, publicKeys } = body;
  if (blob.version !== 3) {
    return [{ path: 'blob.version', message: 'Only version 3 blobs may be stored; open a v2 blob in the client and upload the upgraded one' }];
  }
  const { kdf } = blob;
  for (const field of ['memoryKiB', 'iterations', 'parallelism'] as const) {
    if (kdf[field] < SECUPASS_V3_KDF_FLOOR[field]) problems.push({ path: `blob.kdf.${field}`, message: `must be at least ${SECUPASS_V3_KDF_FLOOR[field]}` });
    else if (kdf[field] > SECUPASS_V3_KDF_CEILING[field]) problems.push({ path: `blob.kdf.${field}`, message: `must be at most ${SECUPASS_V3_KDF_CEILING[field]}` });
  }
  if (Buffer.from(kdf.salt, 'base64url').length !== SALT_BYTES) problems.push({ path: 'blob.kdf.salt', message: `must be ${SALT_BYTES} bytes` });

  const seen = new Set<string>();
  publicKeys.forEach((key, i) => {
    if (seen.has(key.keyId)) problems.push({ path: `publicKeys.${i}.keyId`, message: 'duplicate key id' });
    seen.add(key.keyId);
    if (!isP256Spki(key.publicKey)) problems.push({ path: `publicKeys.${i}.publicKey`, message: 'not a P-256 public key (SPKI)' });
    else if (keyIdOf(key.publicKey) !== key.keyId) problems.push({ path: `publicKeys.${i}.keyId`, message: 'does not match the public key' });
  });
  for (const usage of ['encryption', 'signing'] as const) {
    if (!publicKeys.some((k) => k.usage === usage)) problems.push({ path: 'publicKeys', message: `needs a ${usage} key` });
  }
  if (!sameKeySet(publicKeys, blob.keys)) {
    problems.push({ path: 'blob.keys', message: 'the wrapped keys must be exactly the given public keys (keyId, usage, publicKey)' });
  }
  return problems;
}
