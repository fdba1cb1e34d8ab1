// Test support (NOT used by production code): a fresh signing key pair and a one-character change of
// a sealed string, shared by the tests of the signed Secure-room records (comments, folder labels).
import { generateWrappableKeyPair, importPublicKey, importUserKeyPair } from '../keys';

/** A new ECDSA signing pair: the signer a sealing call takes (private key and key id) and the public key that verifies it. */
export async function signingPair(keyId: string) {
  const generated = await generateWrappableKeyPair('signing');
  const pair = await importUserKeyPair({ usage: 'signing', ...generated });
  return { signer: { privateKey: pair.privateKey, keyId }, verifying: await importPublicKey(generated.publicKeySpki, 'signing') };
}

/** `value` with the character at `at` replaced by another one ('A', or 'B' where it was 'A'). */
export function flipChar(value: string, at: number): string {
  const c = value[at] === 'A' ? 'B' : 'A';
  return value.slice(0, at) + c + value.slice(at + 1);
}
