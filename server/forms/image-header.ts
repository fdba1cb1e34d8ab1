import { FORM_BACKGROUND_MAX_PIXELS, FORM_BACKGROUND_MAX_SIDE, FORM_BACKGROUND_TYPES, FORM_LAYOUT_REASONS, type FormBackgroundType } from '@shared/contract/form-layout';
import { badRequest } from '../core/http-error';

/**
 * The type and dimensions of an uploaded layout image, from its bytes only: PNG (IHDR), JPEG (the
 * first SOF segment), WebP (VP8, VP8L, VP8X). Anything else, or a header that does not parse,
 * is not an image for us.
 */
export interface ImageHeader {
  contentType: FormBackgroundType;
  width: number;
  height: number;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, at: number, text: string) => startsWith(bytes, [...text].map((c) => c.charCodeAt(0)), at);
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

function png(b: Uint8Array): ImageHeader | null {
  if (b.length < 24 || !startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || !ascii(b, 12, 'IHDR')) return null;
  return { contentType: 'image/png', width: u32be(b, 16), height: u32be(b, 20) };
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame's size. */
const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(b: Uint8Array): ImageHeader | null {
  if (!startsWith(b, [0xff, 0xd8, 0xff])) return null;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end or scan data before any frame header
    if (isSof(marker)) return { contentType: 'image/jpeg', height: u16be(b, at + 5), width: u16be(b, at + 7) };
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): ImageHeader | null {
  if (b.length < 30 || !ascii(b, 0, 'RIFF') || !ascii(b, 8, 'WEBP')) return null;
  if (ascii(b, 12, 'VP8 ')) {
    // Key frame start code, then 14-bit width and height.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null;
    return { contentType: 'image/webp', width: (b[26]! | (b[27]! << 8)) & 0x3fff, height: (b[28]! | (b[29]! << 8)) & 0x3fff };
  }
  if (ascii(b, 12, 'VP8L')) {
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { contentType: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, 'VP8X')) return { contentType: 'image/webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** The image's type and size, or the §8 400 (not an image we take; dimensions out of range). */
export function checkLayoutImage(bytes: Uint8Array): ImageHeader {
  if (bytes.length === 0) throw badRequest('The background image is empty', { reason: FORM_LAYOUT_REASONS.empty });
  const header = png(bytes) ?? jpeg(bytes) ?? webp(bytes);
  if (!header) throw badRequest('The background image must be a PNG, JPEG or WebP image', { reason: FORM_LAYOUT_REASONS.notAnImage, allowed: FORM_BACKGROUND_TYPES });
  const { width, height } = header;
  if (width < 1 || height < 1 || width > FORM_BACKGROUND_MAX_SIDE || height > FORM_BACKGROUND_MAX_SIDE || width * height > FORM_BACKGROUND_MAX_PIXELS) {
    throw badRequest(`The background image may be at most ${FORM_BACKGROUND_MAX_SIDE} pixels on each side`, {
      reason: FORM_LAYOUT_REASONS.badDimensions,
      width,
      height,
      maxSide: FORM_BACKGROUND_MAX_SIDE,
      maxPixels: FORM_BACKGROUND_MAX_PIXELS,
    });
  }
  return header;
}
