// User key pairs (ECDH P-256 for encryption, ECDSA P-256 for signing), key ids and fingerprints.
import { toBase64Url, toHex } from './bytes';
import { PublicKeyInvalidError } from './errors';
import { sha256, subtle } from './subtle';

export type UserKeyUsage = 'encryption' | 'signing';

const ALGORITHMS: Record<UserKeyUsage, EcKeyImportParams> = {
  encryption: { name: 'ECDH', namedCurve: 'P-256' },
  signing: { name: 'ECDSA', namedCurve: 'P-256' },
};
const PRIVATE_USAGES: Record<UserKeyUsage, KeyUsage[]> = { encryption: ['deriveBits'], signing: ['sign'] };
const PUBLIC_USAGES: Record<UserKeyUsage, KeyUsage[]> = { encryption: [], signing: ['verify'] };

/** An unlocked key pair. The private key is non-extractable: its bytes cannot leave WebCrypto. */
export interface UserKeyPair {
  keyId: string;
  usage: UserKeyUsage;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** SubjectPublicKeyInfo (DER) of the public key: what the server stores and others fetch. */
  publicKeySpki: Uint8Array;
}

/**
 * A new key pair whose private key is extractable ONCE so it can be wrapped into the SecuPass blob.
 * NB: callers must wrap it and then re-import it non-extractable (secupass.ts does both).
 */
export async function generateWrappableKeyPair(usage: UserKeyUsage): Promise<{ pkcs8: Uint8Array; publicKeySpki: Uint8Array }> {
  const pair = (await subtle().generateKey(ALGORITHMS[usage], true, PRIVATE_USAGES[usage])) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await subtle().exportKey('pkcs8', pair.privateKey));
  const publicKeySpki = new Uint8Array(await subtle().exportKey('spki', pair.publicKey));
  return { pkcs8, publicKeySpki };
}

/** Imports a PKCS8 private key non-extractable, with its public key; checks that both belong together. */
export async function importUserKeyPair(options: { usage: UserKeyUsage; pkcs8: Uint8Array; publicKeySpki: Uint8Array }): Promise<UserKeyPair> {
  const { usage, pkcs8, publicKeySpki } = options;
  const privateKey = await subtle().importKey('pkcs8', pkcs8 as Uint8Array<ArrayBuffer>, ALGORITHMS[usage], false, PRIVATE_USAGES[usage]);
  const publicKey = await importPublicKey(publicKeySpki, usage);
  await assertPairMatches({ usage, pkcs8, publicKeySpki });
  return { keyId: await keyIdOf(publicKeySpki), usage, privateKey, publicKey, publicKeySpki };
}

export async function importPublicKey(spki: Uint8Array, usage: UserKeyUsage): Promise<CryptoKey> {
  try {
    return await subtle().importKey('spki', spki as Uint8Array<ArrayBuffer>, ALGORITHMS[usage], true, PUBLIC_USAGES[usage]);
  } catch (_error) {
    throw new PublicKeyInvalidError('Not a P-256 public key (SPKI)');
  }
}

/** The public point in the PKCS8 must be the one in the SPKI, or a blob could pair foreign keys. */
async function assertPairMatches(options: { usage: UserKeyUsage; pkcs8: Uint8Array; publicKeySpki: Uint8Array }): Promise<void> {
  // A throwaway extractable import only to read the public coordinates (JWK x, y); never leaves this function.
  const probe = await subtle().importKey('pkcs8', options.pkcs8 as Uint8Array<ArrayBuffer>, ALGORITHMS[options.usage], true, PRIVATE_USAGES[options.usage]);
  const privateJwk = await subtle().exportKey('jwk', probe);
  const publicJwk = await subtle().exportKey('jwk', await importPublicKey(options.publicKeySpki, options.usage));
  const matches = privateJwk.x === publicJwk.x && privateJwk.y === publicJwk.y;
  privateJwk.d = '';
  if (!matches) throw new PublicKeyInvalidError('The private key does not belong to the stored public key');
}

/** SHA-256 of the SPKI: the fingerprint users compare. */
export async function fingerprintOf(spki: Uint8Array): Promise<Uint8Array> {
  return sha256(spki);
}

/** Uppercase hex in 16 groups of 4 ("3F2A 9C01 …") so people can read it out to each other. */
export function formatFingerprint(fingerprint: Uint8Array): string {
  return (toHex(fingerprint).toUpperCase().match(/.{1,4}/g) ?? []).join(' ');
}

/** Key id = base64url of the first 16 bytes of the fingerprint: stable, derived, no registry needed. */
export async function keyIdOf(spki: Uint8Array): Promise<string> {
  return toBase64Url((await fingerprintOf(spki)).subarray(0, 16));
}
