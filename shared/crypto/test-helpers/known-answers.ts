// Test support (NOT used by production code): recomputes our own known-answer vectors
// (tests/fixtures/crypto/kat.json) so Node and Chromium check the very same bytes.
import { fromBase64Url, fromHex, toBase64Url, toHex } from '../bytes';
import { unwrapFileKey, type FileKeyBinding, type WrappedFileKey } from '../file-key';
import { fingerprintOf, formatFingerprint, importUserKeyPair, keyIdOf } from '../keys';
import { canonicalJson, verifyManifest, type SignedManifest } from '../manifest';
import { importPublicKey } from '../keys';
import { unlockSecuPass, type SecuPassBlob } from '../secupass';
import { createDecryptStream } from '../stream-decoder';
import { bytesToStream, collectStream, encryptBytes } from '../stream-encoder';
import { sha256 } from '../subtle';
import type { VectorCheck } from './published-vectors';

export interface StreamVector {
  name: string;
  fileKey: string;
  salt: string;
  noncePrefix: string;
  recordSize: number;
  plaintextLength: number;
  header: string;
  /** Whole ciphertext in hex, only for small vectors. */
  ciphertext?: string;
  ciphertextSha256: string;
}

export interface SecuPassVector {
  userId: string;
  passphrase: string;
  blob: SecuPassBlob;
  encryptionPublicKey: string;
  signingPublicKey: string;
}

export interface KnownAnswers {
  stream: StreamVector[];
  fingerprint: { spki: string; sha256: string; display: string; keyId: string };
  secupassV3: SecuPassVector;
  secupassV2: SecuPassVector;
  fileKey: { recipientPkcs8: string; recipientSpki: string; binding: FileKeyBinding; wrapped: WrappedFileKey; fileKey: string };
  manifest: ManifestVector;
  /** Manifest version 2 (sender address signed); added after kat.json was first frozen (generate-kat.ts --append). */
  manifestV2: ManifestVector;
}

export interface ManifestVector {
  signerSpki: string;
  canonical: string;
  signed: SignedManifest;
}

/** The plaintext of stream vectors: byte i = (31·i + 7) mod 256. */
export function katPlaintext(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (31 * i + 7) & 0xff;
  return out;
}

const check = (name: string, expected: string, actual: string): VectorCheck => ({ name, ok: expected === actual, expected, actual });

export async function computeStreamVector(input: Omit<StreamVector, 'header' | 'ciphertext' | 'ciphertextSha256'>, keepCiphertextBelow = 1024): Promise<StreamVector> {
  const ciphertext = await encryptBytes(katPlaintext(input.plaintextLength), {
    fileKey: fromHex(input.fileKey),
    recordSize: input.recordSize,
    salt: fromHex(input.salt),
    noncePrefix: fromHex(input.noncePrefix),
  });
  const vector: StreamVector = {
    ...input,
    header: toHex(ciphertext.subarray(0, 49)),
    ciphertextSha256: toHex(await sha256(ciphertext)),
  };
  if (ciphertext.length <= keepCiphertextBelow) vector.ciphertext = toHex(ciphertext);
  return vector;
}

export async function checkKnownAnswers(kat: KnownAnswers): Promise<VectorCheck[]> {
  const results: VectorCheck[] = [];
  for (const vector of kat.stream) {
    const computed = await computeStreamVector(vector);
    results.push(check(`stream ${vector.name}: header`, vector.header, computed.header));
    results.push(check(`stream ${vector.name}: SHA-256 of ciphertext`, vector.ciphertextSha256, computed.ciphertextSha256));
    if (vector.ciphertext) {
      results.push(check(`stream ${vector.name}: ciphertext`, vector.ciphertext, computed.ciphertext ?? ''));
      const plaintext = await collectStream(
        bytesToStream(fromHex(vector.ciphertext), 7).pipeThrough(createDecryptStream({ fileKey: fromHex(vector.fileKey), plaintextLength: vector.plaintextLength })),
      );
      results.push(check(`stream ${vector.name}: decrypts`, toHex(katPlaintext(vector.plaintextLength)), toHex(plaintext)));
    }
  }

  const spki = fromHex(kat.fingerprint.spki);
  const fingerprint = await fingerprintOf(spki);
  results.push(check('fingerprint: SHA-256 of SPKI', kat.fingerprint.sha256, toHex(fingerprint)));
  results.push(check('fingerprint: display groups', kat.fingerprint.display, formatFingerprint(fingerprint)));
  results.push(check('fingerprint: key id', kat.fingerprint.keyId, await keyIdOf(spki)));

  for (const [name, vector] of [['v3', kat.secupassV3], ['v2', kat.secupassV2]] as const) {
    const unlocked = await unlockSecuPass({ userId: vector.userId, blob: vector.blob, passphrase: vector.passphrase });
    const publicOf = (usage: string) => toBase64Url(unlocked.keys.find((key) => key.usage === usage)?.publicKeySpki ?? new Uint8Array());
    results.push(check(`SecuPass ${name}: encryption key`, vector.encryptionPublicKey, publicOf('encryption')));
    results.push(check(`SecuPass ${name}: signing key`, vector.signingPublicKey, publicOf('signing')));
    results.push(check(`SecuPass ${name}: upgraded to v3`, name === 'v2' ? '3' : 'none', String(unlocked.upgradedBlob?.version ?? 'none')));
  }

  const recipient = await importUserKeyPair({ usage: 'encryption', pkcs8: fromHex(kat.fileKey.recipientPkcs8), publicKeySpki: fromHex(kat.fileKey.recipientSpki) });
  const fileKey = await unwrapFileKey({ wrapped: kat.fileKey.wrapped, binding: kat.fileKey.binding, recipientKeyPair: recipient });
  results.push(check('HPKE file key: unwraps', kat.fileKey.fileKey, toHex(fileKey)));

  for (const [name, vector] of [['manifest', kat.manifest], ['manifest v2', kat.manifestV2]] as const) {
    results.push(check(`${name}: canonical JSON`, vector.canonical, canonicalJson(vector.signed.manifest)));
    let verified = 'verified';
    try {
      await verifyManifest({ signed: vector.signed, verifyingKey: await importPublicKey(fromHex(vector.signerSpki), 'signing') });
    } catch (error) {
      verified = (error as Error).name;
    }
    results.push(check(`${name}: signature verifies`, 'verified', verified));
    results.push(check(`${name}: signature is 64 bytes (P1363)`, '64', String(fromBase64Url(vector.signed.signature).length)));
  }
  results.push(check('manifest v2: version', '2', String(kat.manifestV2.signed.manifest.version)));
  return results;
}
