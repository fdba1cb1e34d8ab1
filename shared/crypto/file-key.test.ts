import { describe, expect, it } from 'vitest';
import { fromBase64Url } from './bytes';
import { fileKeyInfo, generateFileKey, unwrapFileKey, wrapFileKey } from './file-key';
import { generateWrappableKeyPair, importUserKeyPair } from './keys';

async function recipient() {
  const generated = await generateWrappableKeyPair('encryption');
  return importUserKeyPair({ usage: 'encryption', ...generated });
}

describe('HPKE file keys', () => {
  it('wraps a random 256-bit key to a non-extractable recipient key and back', async () => {
    const pair = await recipient();
    const fileKey = generateFileKey();
    expect(fileKey).toHaveLength(32);
    const binding = { contextId: 'delivery-1', fileId: 'file-1', recipientKeyId: pair.keyId };
    const wrapped = await wrapFileKey({ fileKey, recipientPublicKey: pair.publicKey, binding });
    expect(fromBase64Url(wrapped.enc)).toHaveLength(65);
    expect(fromBase64Url(wrapped.ciphertext)).toHaveLength(48);
    expect(await unwrapFileKey({ wrapped, binding, recipientKeyPair: pair })).toEqual(fileKey);
  });

  it('binds context, file and recipient key: any other binding or key fails', async () => {
    const pair = await recipient();
    const other = await recipient();
    const binding = { contextId: 'room-7', fileId: 'file-9', recipientKeyId: pair.keyId };
    const wrapped = await wrapFileKey({ fileKey: generateFileKey(), recipientPublicKey: pair.publicKey, binding });
    for (const changed of [{ ...binding, contextId: 'room-8' }, { ...binding, fileId: 'file-10' }, { ...binding, recipientKeyId: other.keyId }]) {
      await expect(unwrapFileKey({ wrapped, binding: changed, recipientKeyPair: pair })).rejects.toMatchObject({ code: 'file-key-unwrap-failed' });
    }
    await expect(unwrapFileKey({ wrapped, binding, recipientKeyPair: other })).rejects.toMatchObject({ code: 'file-key-unwrap-failed' });
  });

  it('encodes the binding unambiguously (length-prefixed fields)', () => {
    const a = fileKeyInfo({ contextId: 'a|b', fileId: 'c', recipientKeyId: 'k' });
    const b = fileKeyInfo({ contextId: 'a', fileId: 'b|c', recipientKeyId: 'k' });
    expect(a).not.toEqual(b);
  });
});
