import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/http-error';
import { checkThemeAsset, sniffImageType, themeAssetUrl } from './theme-assets';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('theme images', () => {
  it('recognises the type from the bytes, never from a name', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a\x01\x00'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]))).toBe('image/x-icon');
    expect(sniffImageType(Buffer.from('\uFEFF<?xml version="1.0"?><!-- made by hand --><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    expect(sniffImageType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
    expect(sniffImageType(Buffer.from('GIF88a'))).toBeNull();
    expect(sniffImageType(PNG.subarray(0, 7))).toBeNull();
  });

  it('answers the §8 error with figures for each refusal', () => {
    expect(checkThemeAsset('logo', PNG)).toEqual({ contentType: 'image/png', bytes: PNG });
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error as HttpError;
      }
      throw new Error('not refused');
    };
    expect(refusal(() => checkThemeAsset('favicon', Buffer.concat([PNG, Buffer.alloc(128 * 1024)])))).toMatchObject({ statusCode: 413, errorClass: 'PayloadTooLargeException', metadata: { maxBytes: 131072 } });
    expect(refusal(() => checkThemeAsset('logo', Buffer.from([0, 0, 1, 0, 1, 0, 16, 16])))).toMatchObject({ statusCode: 415, metadata: { detected: 'image/x-icon' } });
    for (const svg of ['<svg onload="x()"/>', '<svg><foreignObject/></svg>', '<svg><a href="javascript:x()"/></svg>']) {
      expect(refusal(() => checkThemeAsset('logo', Buffer.from(svg)))).toMatchObject({ statusCode: 400, metadata: { reason: 'activeContent' } });
    }
  });

  it('versions the served URL by the content hash', () => {
    expect(themeAssetUrl('logo', null)).toBe('/webui/logo?v=default');
    expect(themeAssetUrl('favicon', { sha256: 'ab'.repeat(32) })).toBe(`/webui/favicon.ico?v=${'ab'.repeat(8)}`);
  });
});
