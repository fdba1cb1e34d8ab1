import { createHash } from 'node:crypto';
import { THEME_ASSET_MAX_BYTES, THEME_ASSET_PATHS, THEME_ASSET_TYPES, type ThemeAsset, type ThemeAssetInfo, type ThemeOverview } from '@shared/contract/theme';
import type { Kysely } from 'kysely';
import { badRequest, HttpError } from '../core/http-error';
import type { Database } from '../db/schema';
import { sanitiseSvg } from './svg-sanitiser';

/** Migration 0024: the uploaded logo and favicon, one row each. */
export interface ThemeAssetsTable {
  asset: string;
  content_type: string;
  bytes: Uint8Array;
  size: number;
  sha256: string;
  updated_at: number;
}

declare module '../db/schema' {
  interface Database {
    theme_assets: ThemeAssetsTable;
  }
}

/** An uploaded image as stored. */
export interface StoredThemeAsset {
  contentType: string;
  bytes: Uint8Array;
  sha256: string;
  updatedAt: number;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The image type of the bytes (never of a file name or a header): PNG, JPEG, GIF, ICO by their
 * signatures, SVG by its root element. Null for anything else.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length > 6) return 'image/x-icon';
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 2048)).replace(/^\uFEFF/, '');
  // An optional XML declaration, comments and doctype before the <svg> root element.
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return null;
}

/**
 * Checks an upload (size, type, SVG through the allow-list sanitiser, svg-sanitiser.ts); answers
 * the type and the bytes to store (an SVG as sanitised) or throws the §8 error.
 */
export function checkThemeAsset(asset: ThemeAsset, bytes: Uint8Array): { contentType: string; bytes: Uint8Array } {
  const maxBytes = THEME_ASSET_MAX_BYTES[asset];
  if (bytes.length === 0) throw badRequest('The image is empty', { reason: 'empty' });
  if (bytes.length > maxBytes) throw new HttpError(413, 'PayloadTooLargeException', `The ${asset} may be at most ${maxBytes} bytes`, { maxBytes, size: bytes.length });
  const type = sniffImageType(bytes);
  const allowed = THEME_ASSET_TYPES[asset];
  if (!type || !allowed.includes(type)) {
    throw new HttpError(415, 'UnsupportedMediaTypeException', `The ${asset} must be one of: ${allowed.join(', ')}`, { allowed, detected: type });
  }
  if (type !== 'image/svg+xml') return { contentType: type, bytes };
  const sanitised = sanitiseSvg(new TextDecoder().decode(bytes));
  if (!sanitised.ok) {
    throw badRequest('The SVG image contains scripts, event handlers, external references or embedded content', { reason: 'activeContent', removed: sanitised.removed });
  }
  return { contentType: type, bytes: new TextEncoder().encode(sanitised.svg) };
}

/** Served SVG bytes per stored hash: each stored SVG goes through the sanitiser once per process, not per request. */
const servedSvgs = new Map<string, Uint8Array | null>();

/**
 * What is served of a stored SVG: the sanitiser's serialisation, or null when the allow-list would
 * remove something. An SVG stored before the sanitiser existed (issue 28 §1) may hold scripts or
 * event handlers; it is never served raw — the product's image stands in until it is uploaded again.
 */
function servedSvg(sha256: string, bytes: Uint8Array): Uint8Array | null {
  let served = servedSvgs.get(sha256);
  if (served === undefined) {
    const sanitised = sanitiseSvg(new TextDecoder().decode(bytes));
    served = sanitised.ok ? new TextEncoder().encode(sanitised.svg) : null;
    if (servedSvgs.size >= 16) servedSvgs.clear();
    servedSvgs.set(sha256, served);
  }
  return served;
}

/** The asset as served (an SVG sanitised on read, see servedSvg); null: none, or an SVG with active content. */
export async function loadThemeAsset(db: Kysely<Database>, asset: ThemeAsset): Promise<StoredThemeAsset | null> {
  const row = await db.selectFrom('theme_assets').selectAll().where('asset', '=', asset).executeTakeFirst();
  if (!row) return null;
  const stored = new Uint8Array(row.bytes);
  const bytes = row.content_type === 'image/svg+xml' ? servedSvg(row.sha256, stored) : stored;
  if (!bytes) return null;
  return { contentType: row.content_type, bytes, sha256: row.sha256, updatedAt: Number(row.updated_at) };
}

export async function saveThemeAsset(db: Kysely<Database>, asset: ThemeAsset, contentType: string, bytes: Uint8Array): Promise<void> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const row = { content_type: contentType, bytes: Buffer.from(bytes), size: bytes.length, sha256, updated_at: Date.now() };
  await db
    .insertInto('theme_assets')
    .values({ asset, ...row })
    .onConflict((oc) => oc.column('asset').doUpdateSet(row))
    .execute();
}

export async function removeThemeAssets(db: Kysely<Database>, assets: readonly ThemeAsset[]): Promise<void> {
  if (assets.length > 0) await db.deleteFrom('theme_assets').where('asset', 'in', [...assets]).execute();
}

export async function themeOverview(db: Kysely<Database>): Promise<ThemeOverview> {
  const rows = await db.selectFrom('theme_assets').select(['asset', 'content_type', 'size', 'sha256', 'updated_at']).execute();
  const info = (asset: ThemeAsset): ThemeAssetInfo | null => {
    const row = rows.find((r) => r.asset === asset);
    return row ? { contentType: row.content_type, size: Number(row.size), sha256: row.sha256, updatedAt: Number(row.updated_at) } : null;
  };
  return { logo: info('logo'), favicon: info('favicon') };
}

/** The served URL of an asset, versioned by its hash (`default` for the product's image). */
export function themeAssetUrl(asset: ThemeAsset, info: Pick<ThemeAssetInfo, 'sha256'> | null): string {
  return `${THEME_ASSET_PATHS[asset]}?v=${info ? info.sha256.slice(0, 16) : 'default'}`;
}
