import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/http-error';
import { checkLayoutImage } from './image-header';

// The layout image check reads type and size from the bytes only (server/forms/image-header.ts).

const reasonOf = (bytes: Uint8Array) => {
  try {
    checkLayoutImage(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return ((error as HttpError).metadata as { reason: string }).reason;
  }
  throw new Error('accepted');
};

/** A PNG's signature and IHDR chunk (the check reads no further). */
function makePng(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 0);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b.set([8, 2, 0, 0, 0], 24);
  return b;
}

/** A JPEG header: SOI, an APP0 segment, then SOF0 with the frame size. */
function jpeg(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01];
  return Uint8Array.from([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

/** A WebP RIFF header with the given chunk. */
function webp(chunk: 'VP8X' | 'VP8L' | 'VP8 ', width: number, height: number): Uint8Array {
  const b = new Uint8Array(40);
  b.set([...'RIFF'].map((c) => c.charCodeAt(0)), 0);
  b.set([...'WEBP'].map((c) => c.charCodeAt(0)), 8);
  b.set([...chunk].map((c) => c.charCodeAt(0)), 12);
  if (chunk === 'VP8X') {
    const w = width - 1;
    const h = height - 1;
    b.set([w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff], 24);
  } else if (chunk === 'VP8L') {
    const bits = (width - 1) | ((height - 1) << 14);
    b.set([0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff], 20);
  } else {
    b.set([0x9d, 0x01, 0x2a, width & 0xff, width >> 8, height & 0xff, height >> 8], 23);
  }
  return b;
}

describe('layout image header', () => {
  it('recognises PNG, JPEG and WebP with their dimensions', () => {
    expect(checkLayoutImage(makePng(3, 2))).toEqual({ contentType: 'image/png', width: 3, height: 2 });
    expect(checkLayoutImage(jpeg(640, 480))).toEqual({ contentType: 'image/jpeg', width: 640, height: 480 });
    expect(checkLayoutImage(webp('VP8X', 1920, 1080))).toEqual({ contentType: 'image/webp', width: 1920, height: 1080 });
    expect(checkLayoutImage(webp('VP8L', 300, 200))).toEqual({ contentType: 'image/webp', width: 300, height: 200 });
    expect(checkLayoutImage(webp('VP8 ', 1024, 768))).toEqual({ contentType: 'image/webp', width: 1024, height: 768 });
  });

  it('refuses text named .png, GIF, SVG, a cut header, nothing at all, and absurd dimensions', () => {
    expect(reasonOf(new TextEncoder().encode('just a text file called picture.png'))).toBe('notAnImage');
    expect(reasonOf(Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]))).toBe('notAnImage');
    expect(reasonOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('notAnImage');
    expect(reasonOf(makePng(2, 2).subarray(0, 20))).toBe('notAnImage');
    expect(reasonOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]))).toBe('notAnImage');
    expect(reasonOf(new Uint8Array())).toBe('empty');
    expect(reasonOf(webp('VP8X', 9000, 10))).toBe('badDimensions');
    expect(reasonOf(webp('VP8X', 7000, 7000))).toBe('badDimensions');
    expect(reasonOf(jpeg(0, 10))).toBe('badDimensions');
  });
});
