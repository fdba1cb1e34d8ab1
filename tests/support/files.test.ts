import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HttpError } from '@server/core/http-error';
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_BLOCKED_MIME_TYPES } from '@server/settings/defaults';
import { detectType, refuseBlockedContent } from '@server/uploads/content-type';
import { EXE_HEADER, LNK_HEADER } from '@server/uploads/content-type.test-helper';
import { TEST_FILE_PREFIX, testFileBytes } from './files';

const POLICY = { blockedExtensions: DEFAULT_BLOCKED_EXTENSIONS.split(','), blockedMimeTypes: DEFAULT_BLOCKED_MIME_TYPES.split(',') };

/** What the commit of a plain upload does with the first bytes (server/uploads/content-type.ts). */
async function refusedAtCommit(bytes: Uint8Array): Promise<boolean> {
  try {
    refuseBlockedContent('upload.bin', await detectType(bytes), POLICY);
    return false;
  } catch (error) {
    if (error instanceof HttpError && error.metadata?.reason === 'blockedContent') return true;
    throw error;
  }
}

describe('testFileBytes: random content for plain uploads that never looks like a program', () => {
  it('is what random bytes fail on once in 65 536 uploads: a start that file-type takes for a blocked type', async () => {
    expect(await refusedAtCommit(Buffer.concat([Buffer.from('MZ'), randomBytes(200)]))).toBe(true);
    expect(await refusedAtCommit(Buffer.concat([EXE_HEADER, randomBytes(200)]))).toBe(true);
    expect(await refusedAtCommit(Buffer.concat([LNK_HEADER, randomBytes(200)]))).toBe(true);
  });

  it('starts with a text prefix no blocked signature starts with, at every size, random after it', async () => {
    // Every blocked type file-type detects has its signature at offset 0 (exe, jar, reg, lnk).
    for (const signature of [EXE_HEADER, Buffer.from('PK\x03\x04'), Buffer.from('REGEDIT4'), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff]), LNK_HEADER]) {
      expect(TEST_FILE_PREFIX.charCodeAt(0)).not.toBe(signature[0]);
    }
    for (const size of [0, 1, 2, 3, TEST_FILE_PREFIX.length - 1, TEST_FILE_PREFIX.length, TEST_FILE_PREFIX.length + 2, 100, 5000]) {
      const bytes = testFileBytes(size);
      expect(bytes.length).toBe(size);
      expect(bytes.subarray(0, TEST_FILE_PREFIX.length).toString('latin1')).toBe(TEST_FILE_PREFIX.slice(0, size));
      expect(await refusedAtCommit(bytes), `size ${size}`).toBe(false);
    }
    // The program's own start right behind the prefix is not at offset 0: never refused.
    const disguised = Buffer.concat([Buffer.from(TEST_FILE_PREFIX), EXE_HEADER, randomBytes(100)]);
    expect(await refusedAtCommit(disguised)).toBe(false);
    expect(testFileBytes(64).equals(testFileBytes(64))).toBe(false);
  });
});
