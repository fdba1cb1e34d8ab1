import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './bytes';
import { generateWrappableKeyPair, importUserKeyPair } from './keys';
import { canonicalJson, signManifest, verifyManifest, type Manifest } from './manifest';

const manifest: Manifest = {
  version: 1,
  contextId: 'delivery-1',
  senderUserId: 'user-1',
  signerKeyId: 'k',
  createdAt: '2026-01-01T00:00:00.000Z',
  files: [{ fileId: 'f1', name: 'a.txt', size: 3, headerSha256: 'AAAA' }],
};

describe('signed manifests', () => {
  it('canonical JSON sorts keys, drops undefined, refuses non-integers and odd objects', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined, d: { z: 'ü', y: '"' } })).toBe('{"a":[true,null,"x"],"b":1,"d":{"y":"\\"","z":"ü"}}');
    expect(() => canonicalJson({ a: 1.5 })).toThrow(expect.objectContaining({ code: 'manifest-invalid' }));
    expect(() => canonicalJson({ a: new Date() })).toThrow(expect.objectContaining({ code: 'manifest-invalid' }));
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(expect.objectContaining({ code: 'manifest-invalid' }));
  });

  it('verifies with the signer key and rejects any change or another key', async () => {
    const signer = await importUserKeyPair({ usage: 'signing', ...(await generateWrappableKeyPair('signing')) });
    const other = await importUserKeyPair({ usage: 'signing', ...(await generateWrappableKeyPair('signing')) });
    const signed = await signManifest({ manifest, signingKey: signer.privateKey });
    expect(await verifyManifest({ signed, verifyingKey: signer.publicKey })).toEqual(manifest);
    // Key order does not matter (canonical form), content does.
    const reordered = JSON.parse(JSON.stringify({ signature: signed.signature, manifest: Object.fromEntries(Object.entries(manifest).reverse()) }));
    await expect(verifyManifest({ signed: reordered, verifyingKey: signer.publicKey })).resolves.toBeTruthy();
    const renamed = { ...signed, manifest: { ...manifest, files: [{ ...manifest.files[0]!, name: 'b.txt' }] } };
    await expect(verifyManifest({ signed: renamed, verifyingKey: signer.publicKey })).rejects.toMatchObject({ code: 'manifest-signature-invalid' });
    const resized = { ...signed, manifest: { ...manifest, files: [{ ...manifest.files[0]!, size: 4 }] } };
    await expect(verifyManifest({ signed: resized, verifyingKey: signer.publicKey })).rejects.toMatchObject({ code: 'manifest-signature-invalid' });
    const dropped = { ...signed, manifest: { ...manifest, files: [] } };
    await expect(verifyManifest({ signed: dropped, verifyingKey: signer.publicKey })).rejects.toMatchObject({ code: 'manifest-signature-invalid' });
    await expect(verifyManifest({ signed, verifyingKey: other.publicKey })).rejects.toMatchObject({ code: 'manifest-signature-invalid' });
    const signature = fromBase64Url(signed.signature);
    signature[10] = (signature[10] ?? 0) ^ 1;
    await expect(verifyManifest({ signed: { ...signed, signature: toBase64Url(signature) }, verifyingKey: signer.publicKey })).rejects.toMatchObject({
      code: 'manifest-signature-invalid',
    });
  });

  it('version 2 signs the sender address; v1 stays readable; unknown versions and a v2 without address are refused', async () => {
    const signer = await importUserKeyPair({ usage: 'signing', ...(await generateWrappableKeyPair('signing')) });
    const v2: Manifest = { ...manifest, version: 2, senderEmail: 'alice@example.test' };
    const signed = await signManifest({ manifest: v2, signingKey: signer.privateKey });
    expect(await verifyManifest({ signed, verifyingKey: signer.publicKey })).toEqual(v2);
    // Another address under the same signature: refused.
    await expect(verifyManifest({ signed: { ...signed, manifest: { ...v2, senderEmail: 'ceo@example.test' } }, verifyingKey: signer.publicKey })).rejects.toMatchObject({
      code: 'manifest-signature-invalid',
    });
    // A v1 manifest (made before v2) still verifies.
    const v1 = await signManifest({ manifest, signingKey: signer.privateKey });
    expect((await verifyManifest({ signed: v1, verifyingKey: signer.publicKey })).version).toBe(1);
    const noAddress = await signManifest({ manifest: { ...manifest, version: 2 } as unknown as Manifest, signingKey: signer.privateKey });
    await expect(verifyManifest({ signed: noAddress, verifyingKey: signer.publicKey })).rejects.toMatchObject({ code: 'manifest-invalid' });
    const future = await signManifest({ manifest: { ...v2, version: 3 } as unknown as Manifest, signingKey: signer.privateKey });
    await expect(verifyManifest({ signed: future, verifyingKey: signer.publicKey })).rejects.toMatchObject({ code: 'manifest-invalid' });
  });
});
