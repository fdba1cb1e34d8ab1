// Test support (NOT used by production code): checks our primitives against published vectors
// (tests/fixtures/crypto/published-vectors.json). Runs in Node (Vitest) and in Chromium (Playwright).
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { argon2id } from 'hash-wasm';
import { exactCopy, fromHex, toHex, utf8Encode } from '../bytes';
import { fileKeySuite } from '../file-key';
import { hkdfSha256 } from '../subtle';

export interface VectorCheck {
  name: string;
  ok: boolean;
  expected: string;
  actual: string;
}

interface PublishedVectors {
  hkdfSha256: { cases: { name: string; ikm: string; salt: string; info: string; length: number; okm: string }[] };
  hpke: {
    cases: {
      name: string;
      aead: 'AES-128-GCM' | 'AES-256-GCM';
      info: string;
      ikmE: string;
      ikmR?: string;
      pkRm: string;
      enc?: string;
      pt: string;
      aad: string;
      ct: string;
    }[];
  };
  argon2id: { cases: { password: string; salt: string; memoryKiB: number; iterations: number; parallelism: number; tag: string }[] };
}

const check = (name: string, expected: string, actual: string): VectorCheck => ({ name, ok: expected === actual, expected, actual });

export async function checkPublishedVectors(vectors: PublishedVectors, options: { skipSlowArgon2?: boolean } = {}): Promise<VectorCheck[]> {
  const results: VectorCheck[] = [];
  for (const c of vectors.hkdfSha256.cases) {
    const okm = await hkdfSha256({ ikm: fromHex(c.ikm), salt: fromHex(c.salt), info: fromHex(c.info), length: c.length });
    results.push(check(`HKDF-SHA256 ${c.name}`, c.okm, toHex(okm)));
  }
  for (const c of vectors.hpke.cases) {
    const suite =
      c.aead === 'AES-256-GCM'
        ? fileKeySuite()
        : new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
    const recipientPublicKey = await suite.kem.importKey('raw', exactCopy(fromHex(c.pkRm)).buffer, true);
    // ekm = ikmE makes the ephemeral key the RFC's (a test-only input of @hpke/core).
    const sender = await suite.createSenderContext({ recipientPublicKey, info: fromHex(c.info), ekm: fromHex(c.ikmE) });
    const ct = new Uint8Array(await sender.seal(fromHex(c.pt), fromHex(c.aad)));
    results.push(check(`HPKE ${c.name}: ciphertext`, c.ct, toHex(ct)));
    if (c.enc) results.push(check(`HPKE ${c.name}: enc`, c.enc, toHex(new Uint8Array(sender.enc))));
    if (c.ikmR && c.enc) {
      const recipientKey = await suite.kem.deriveKeyPair(fromHex(c.ikmR));
      const pkR = new Uint8Array(await suite.kem.serializePublicKey(recipientKey.publicKey));
      results.push(check(`HPKE ${c.name}: DeriveKeyPair(ikmR)`, c.pkRm, toHex(pkR)));
      const recipient = await suite.createRecipientContext({ recipientKey, enc: fromHex(c.enc), info: fromHex(c.info) });
      const pt = new Uint8Array(await recipient.open(fromHex(c.ct), fromHex(c.aad)));
      results.push(check(`HPKE ${c.name}: open`, c.pt, toHex(pt)));
    }
  }
  for (const c of vectors.argon2id.cases) {
    if (options.skipSlowArgon2 && c.memoryKiB > 1024) continue;
    const tag = await argon2id({
      password: utf8Encode(c.password),
      salt: utf8Encode(c.salt),
      memorySize: c.memoryKiB,
      iterations: c.iterations,
      parallelism: c.parallelism,
      hashLength: 32,
      outputType: 'binary',
    });
    results.push(check(`Argon2id ${c.password}/${c.salt} m=${c.memoryKiB} t=${c.iterations} p=${c.parallelism}`, c.tag, toHex(tag)));
  }
  return results;
}
