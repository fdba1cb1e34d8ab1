import { describe, expect, it } from 'vitest';
import kat from '../../tests/fixtures/crypto/room-kat.json';
import {
  checkRoomVersionChain,
  deriveRoomKeys,
  generateRoomKey,
  nextVersionLink,
  openRoomFileMetadata,
  renameLink,
  roomMetadataCounter,
  roomMetadataSha256,
  sealRoomFileMetadata,
  verifyRoomFileMetadata,
  type RoomFileMetadata,
} from './room';
import { subtle } from './subtle';

// The version chain of E2E room files (README section 7 "Version chain", issue 28 §2 case 2).

const legacy: RoomFileMetadata = {
  format: 1, roomId: '0b7e7a52-6d2f-4c1e-9a43-5d1f7c2e8a10', fileId: '5f3c2b1a-8e7d-4c6b-9a5f-4e3d2c1b0a99', version: 1, name: 'Bericht.pdf', size: 1234,
  headerSha256: 'h', contentSha256: 'c', uploaderUserId: 'user-1', uploaderEmail: 'a@example.test', signerKeyId: 'k', createdAt: '2026-11-25T00:00:00.000Z',
};

/** Versions 1..n as the writer makes them: each new version links to the state before it. */
async function chain(first: RoomFileMetadata, count: number): Promise<RoomFileMetadata[]> {
  const out = [first];
  for (let v = 2; v <= count; v++) out.push({ ...out[v - 2]!, version: v, contentSha256: `c${v}`, ...(await nextVersionLink(out[v - 2]!)) });
  return out;
}

describe('room version chain: known answers', () => {
  it('the hash is SHA-256 of the canonical JSON the signature covers (computed independently with Python hashlib)', async () => {
    const metadata: RoomFileMetadata = { ...legacy, version: 2, counter: 3, previousSha256: 'A'.repeat(43) };
    // {"contentSha256":"c","counter":3,"createdAt":…,"version":2}: keys sorted, no blanks, UTF-8.
    expect(await roomMetadataSha256(metadata)).toBe('dmrFfvpg2vc_eO480T6Le08ycC0nWgtbtd7j7QOkvqA');
    // Any signed field changes it (the signature is not part of it: it covers exactly these bytes).
    expect(await roomMetadataSha256({ ...metadata, counter: 4 })).not.toBe('dmrFfvpg2vc_eO480T6Le08ycC0nWgtbtd7j7QOkvqA');
  });

  it('the room vector’s metadata (non-ASCII name and address) hashes to the value the Python reader checks (room-kat.json "chain")', async () => {
    expect(await roomMetadataSha256(kat.file.metadata as RoomFileMetadata)).toBe(kat.chain.fileMetadataSha256);
  });

  it('the writer’s links: a new file starts at 1, a new version counts up and hashes the current state, a rename counts up and keeps the predecessor', async () => {
    expect(await nextVersionLink(null)).toEqual({ counter: 1 });
    // A legacy file (no counter = 0): its next version starts the chain at 1, hashing the legacy state.
    expect(await nextVersionLink(legacy)).toEqual({ counter: 1, previousSha256: await roomMetadataSha256(legacy) });
    const v2 = { ...legacy, version: 2, ...(await nextVersionLink(legacy)) };
    expect(renameLink(v2)).toEqual({ counter: 2, previousSha256: v2.previousSha256 });
    expect(renameLink(legacy)).toEqual({ counter: 1 });
    expect(roomMetadataCounter(legacy)).toBe(0);
  });
});

describe('room version chain: what a reader detects', () => {
  it('an intact chain (legacy start, renames between versions, pruned oldest versions) passes', async () => {
    const versions = await chain(legacy, 4);
    await checkRoomVersionChain(versions);
    await checkRoomVersionChain([...versions].reverse());
    // Version 2 renamed twice before version 3 was made from its last state.
    const v2 = { ...versions[1]!, name: 'Neu.pdf', ...renameLink(versions[1]!) };
    const renamed = { ...v2, ...renameLink(v2) };
    const v3 = { ...renamed, version: 3, ...(await nextVersionLink(renamed)) };
    await checkRoomVersionChain([legacy, renamed, v3]);
    // The oldest versions pruned: what is left still chains.
    await checkRoomVersionChain(versions.slice(2));
  });

  it('mutations: a counter that does not count up, a wrong or missing previous hash, a legacy version after a chained one, a twice listed version', async () => {
    const versions = await chain({ ...legacy, counter: 1 }, 3);
    const withV3 = (v3: RoomFileMetadata) => checkRoomVersionChain([versions[0]!, versions[1]!, v3]);
    const v3 = versions[2]!;
    await expect(withV3({ ...v3, counter: versions[1]!.counter! })).rejects.toMatchObject({ code: 'room-version-chain-broken' });
    await expect(withV3({ ...v3, counter: 1 })).rejects.toMatchObject({ code: 'room-version-chain-broken' });
    await expect(withV3({ ...v3, previousSha256: await roomMetadataSha256(versions[0]!) })).rejects.toMatchObject({ code: 'room-version-chain-broken' });
    const { previousSha256: _dropped, ...unlinked } = v3;
    await expect(withV3(unlinked)).rejects.toMatchObject({ code: 'room-version-chain-broken' });
    const { counter: _c, previousSha256: _p, ...legacyShaped } = v3;
    await expect(withV3(legacyShaped)).rejects.toMatchObject({ code: 'room-version-chain-broken' });
    // The server swaps version 2's stored metadata for an earlier rename state of it: version 3 no longer names it.
    const earlierState = { ...versions[1]!, name: 'Old.pdf' };
    await expect(checkRoomVersionChain([versions[0]!, earlierState, v3])).rejects.toMatchObject({ code: 'room-version-chain-broken' });
    await expect(checkRoomVersionChain([versions[0]!, versions[1]!, { ...versions[1]! }])).rejects.toMatchObject({ code: 'room-version-chain-broken' });
  });

  it('the chain fields are signed and shape-checked: an edited counter breaks the signature, a malformed one does not open', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const pair = (await subtle().generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    const ref = { roomId: legacy.roomId, fileId: legacy.fileId, version: 2 };
    const metadata = { ...legacy, version: 2, ...(await nextVersionLink(legacy)) };
    const signed = await openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, metadata, pair.privateKey));
    expect(await verifyRoomFileMetadata(signed, pair.publicKey, ref)).toEqual(metadata);
    // A member with the room key raises the counter (to outrun a reader's memory): the signature breaks.
    await expect(verifyRoomFileMetadata({ ...signed, metadata: { ...signed.metadata, counter: 99 } }, pair.publicKey, ref)).rejects.toMatchObject({ code: 'room-metadata-signature-invalid' });
    for (const bad of [{ counter: 0 }, { counter: -1 }, { counter: '2' }, { previousSha256: 'short' }, { previousSha256: 7 }]) {
      const sealed = await sealRoomFileMetadata(keys, { ...metadata, ...bad } as RoomFileMetadata, pair.privateKey);
      await expect(openRoomFileMetadata(keys, ref, sealed)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    }
  });
});
