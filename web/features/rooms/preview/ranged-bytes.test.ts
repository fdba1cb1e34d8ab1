import { describe, expect, it } from 'vitest';
import { blobRanges, sizeOfContentRange } from './ranged-bytes';

describe('ranged bytes', () => {
  it('reads the size from a 206 Content-Range, nothing else', () => {
    expect(sizeOfContentRange('bytes 0-0/52428800')).toBe(52_428_800);
    expect(sizeOfContentRange('bytes 10-19/20')).toBe(20);
    expect(sizeOfContentRange('bytes */20')).toBeNull();
    expect(sizeOfContentRange('bytes 0-0/*')).toBeNull();
    expect(sizeOfContentRange(null)).toBeNull();
  });

  it('reads bytes in memory by range', async () => {
    const ranges = blobRanges(new Blob([new Uint8Array([1, 2, 3, 4, 5])]));
    expect(ranges.size).toBe(5);
    expect([...(await ranges.read(1, 4))]).toEqual([2, 3, 4]);
    expect([...(await ranges.read(4, 5))]).toEqual([5]);
  });
});
