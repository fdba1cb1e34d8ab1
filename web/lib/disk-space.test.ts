import de from '@locales/de/rooms.json';
import en from '@locales/en/rooms.json';
import fr from '@locales/fr/rooms.json';
import { describe, expect, it } from 'vitest';
import { DISK_SPACE_FAILURE, DISK_SPACE_HELP, isDiskSpaceError } from './disk-space';
import { e2eDownloadFailureOf } from './e2e-download';
import { DownloadFailure, plainDownloadFailureOf } from './plain-download';

describe('a download written to disk that fails for want of space (SPEC §8 "insufficient disk space")', () => {
  it('is recognised by the writer’s QuotaExceededError, and only by it', () => {
    // What Chromium's File System Access writable rejects with when the disk or the quota is full.
    expect(isDiskSpaceError(new DOMException('The disk is full.', 'QuotaExceededError'))).toBe(true);
    expect(isDiskSpaceError({ name: 'QuotaExceededError' })).toBe(true);
    // Other write failures stay plain download errors.
    for (const other of [new DOMException('x', 'NotAllowedError'), new DOMException('x', 'AbortError'), new TypeError('QuotaExceededError'), new Error('quota'), null, undefined, 'QuotaExceededError', 0]) {
      expect(isDiskSpaceError(other)).toBe(false);
    }
  });

  it('maps to the disk-space message with the bundled help’s downloads section, in every language', () => {
    expect(DISK_SPACE_FAILURE).toEqual({ key: 'rooms:errors.diskSpace', help: DISK_SPACE_HELP });
    expect(DISK_SPACE_HELP).toMatch(/#help-downloads$/);
    for (const [lang, texts] of Object.entries({ de, en, fr })) {
      expect(texts.errors.diskSpace, lang).toMatch(/\S/);
      expect(texts.errors.diskSpaceHelp, lang).toMatch(/\S/);
    }
  });

  it('is the message both download paths give for it; any other write failure stays the plain download error', () => {
    const full = new DOMException('The disk is full.', 'QuotaExceededError');
    expect(plainDownloadFailureOf(full)).toEqual(DISK_SPACE_FAILURE);
    expect(e2eDownloadFailureOf(full)).toEqual(DISK_SPACE_FAILURE);
    const denied = new DOMException('x', 'NotAllowedError');
    expect(plainDownloadFailureOf(denied)).toEqual({ key: 'deliveries:messages.downloadError' });
    expect(e2eDownloadFailureOf(denied)).toEqual({ key: 'deliveries:messages.downloadError' });
    // Whatever else is thrown (null, a string) is the plain download error, not a crash of the mapper.
    expect(e2eDownloadFailureOf(null)).toEqual({ key: 'deliveries:messages.downloadError' });
    expect(e2eDownloadFailureOf('failed')).toEqual({ key: 'deliveries:messages.downloadError' });
    // A failure the ZIP path names itself keeps its own message.
    expect(plainDownloadFailureOf(new DownloadFailure({ key: 'rooms:errors.zipPartial' }))).toEqual({ key: 'rooms:errors.zipPartial' });
  });
});
