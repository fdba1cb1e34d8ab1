// The wire signature of Secure-room records that are signed apart from file metadata (comments, folder
// labels; README section 7): "<signerKeyId>.<base64url ECDSA P-256 SHA-256 signature, P1363>". Key ids
// are base64url, so they never hold the ".". One place for the format; each record keeps its own
// signed bytes and its own error for a signature that names no key or does not verify.
import { fromBase64Url, toBase64Url } from './bytes';
import { subtle } from './subtle';

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
export const KEY_ID_SEPARATOR = '.';

/** Signs `signed` with the signer's private key: the wire signature naming her key id. */
export async function signWithKeyId(signer: { privateKey: CryptoKey; keyId: string }, signed: Uint8Array<ArrayBuffer>): Promise<string> {
  const signature = new Uint8Array(await subtle().sign(ECDSA_SHA256, signer.privateKey, signed));
  return signer.keyId + KEY_ID_SEPARATOR + toBase64Url(signature);
}

/** The key id a wire signature names, or null when it names none (no "." or nothing before it, not a string). */
export function keyIdOfSignature(signature: string): string | null {
  const at = typeof signature === 'string' ? signature.indexOf(KEY_ID_SEPARATOR) : -1;
  return at > 0 ? signature.slice(0, at) : null;
}

/** Whether the signature after `<keyId>.` verifies over `signed` with the key; a malformed one does not. */
export async function verifyWithKeyId(verifyingKey: CryptoKey, signature: string, keyId: string, signed: Uint8Array<ArrayBuffer>): Promise<boolean> {
  try {
    return await subtle().verify(ECDSA_SHA256, verifyingKey, fromBase64Url(signature.slice(keyId.length + 1)) as Uint8Array<ArrayBuffer>, signed);
  } catch {
    return false;
  }
}
