import { z } from 'zod';
import { CONFIG_KEYS } from './config';

/**
 * The theme of an installation (issue 17 §2, SPEC §3 theme keys, §5 hex rule, §9 luminance rule).
 * Title and colours are the profile settings `ftapi.layout.webui.title` and
 * `ftapi.layout.css.color.*` (PUT /admin/settings validates them: `#RRGGBB` only). Logo and
 * favicon are images stored by the server (PUT /admin/theme/{asset}, raw bytes as
 * `application/octet-stream`; the server recognises the type from the bytes, not from a name or
 * header) and served publicly at THEME_ASSET_PATHS, which the web shell, the login page, the
 * add-in and the mails use. DELETE /admin/theme resets title, colours, logo and favicon.
 */
export const THEME_ASSETS = ['logo', 'favicon'] as const;
export type ThemeAsset = (typeof THEME_ASSETS)[number];

/** Image types each asset accepts (recognised from the first bytes; SVG from its root element). */
export const THEME_ASSET_TYPES: Readonly<Record<ThemeAsset, readonly string[]>> = {
  logo: ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml'],
  favicon: ['image/png', 'image/x-icon', 'image/gif', 'image/svg+xml'],
};

/** Largest file per asset: a logo of 512 KiB is a print file; a favicon needs far less. */
export const THEME_ASSET_MAX_BYTES: Readonly<Record<ThemeAsset, number>> = {
  logo: 512 * 1024,
  favicon: 128 * 1024,
};

/** Public paths (outside /api/2) that always answer an image: the uploaded one or the product's. */
export const THEME_ASSET_PATHS: Readonly<Record<ThemeAsset, string>> = {
  logo: '/webui/logo',
  favicon: '/webui/favicon.ico',
};

/**
 * Profile keys (GET /config/profile, besides SPEC §3's) with the URL of the current logo and
 * favicon, versioned by their content hash, so a changed image shows without waiting for caches.
 */
export const THEME_PROFILE_KEYS = {
  logoUrl: 'kuvert.layout.logo.url',
  faviconUrl: 'kuvert.layout.favicon.url',
} as const;

/** The settings DELETE /admin/theme puts back to their defaults. */
export const THEME_SETTING_KEYS = [
  CONFIG_KEYS.webUiTitle,
  CONFIG_KEYS.themeColor,
  CONFIG_KEYS.themeHoverColor,
  CONFIG_KEYS.tableRowColor,
  CONFIG_KEYS.tableRowHoverColor,
] as const;

export const ThemeAssetParamsSchema = z.object({ asset: z.enum(THEME_ASSETS) }).strict();

export const ThemeAssetInfoSchema = z
  .object({
    contentType: z.string(),
    size: z.number().int().nonnegative(),
    /** Hex SHA-256 of the bytes (the version in the served URL). */
    sha256: z.string(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'ThemeAssetInfo' });
export type ThemeAssetInfo = z.infer<typeof ThemeAssetInfoSchema>;

/** GET /admin/theme: the uploaded images (null = the product's own). */
export const ThemeOverviewSchema = z
  .object({ logo: ThemeAssetInfoSchema.nullable(), favicon: ThemeAssetInfoSchema.nullable() })
  .meta({ id: 'ThemeOverview' });
export type ThemeOverview = z.infer<typeof ThemeOverviewSchema>;
