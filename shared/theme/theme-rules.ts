import { CONFIG_KEYS, type ConfigValue } from '@shared/contract/config';
import { DEFAULT_THEME_COLOR, DEFAULT_THEME_HOVER_COLOR, LIGHT_TEXT_LUMINANCE_THRESHOLD } from './constants';

export class InvalidThemeColorError extends Error {
  override readonly name = 'InvalidThemeColorError';
  constructor(readonly key: string, readonly value: unknown) {
    super(`Theme colour ${key} is not a valid hex colour: ${JSON.stringify(value)}`);
  }
}

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value.trim());
}

/** Parses #rgb / #rrggbb (leading # optional); raises InvalidThemeColorError otherwise (SPEC §5). */
export function parseHexColor(value: unknown, key = 'colour'): Rgb {
  if (!isHexColor(value)) throw new InvalidThemeColorError(key, value);
  let hex = value.trim().replace('#', '');
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

export function toHex({ r, g, b }: Rgb): string {
  const part = (n: number) => Math.round(Math.min(255, Math.max(0, n))).toString(16).padStart(2, '0');
  return `#${part(r)}${part(g)}${part(b)}`.toUpperCase();
}

/** Perceived luminance 0–255 (ITU-R BT.601 weights), the measure the 186 rule is defined on. */
export function luminance(color: string): number {
  const { r, g, b } = parseHexColor(color);
  return r * 0.299 + g * 0.587 + b * 0.114;
}

/** Light (#FFFFFF) text on colours of luminance ≤ 186, else dark (#000000) (SPEC §9). */
export function buttonTextColor(background: string): '#FFFFFF' | '#000000' {
  return luminance(background) <= LIGHT_TEXT_LUMINANCE_THRESHOLD ? '#FFFFFF' : '#000000';
}

/** Mixes two colours: weight 0 = a, 1 = b. */
export function mixColors(a: string, b: string, weight: number): string {
  const x = parseHexColor(a);
  const y = parseHexColor(b);
  return toHex({ r: x.r + (y.r - x.r) * weight, g: x.g + (y.g - x.g) * weight, b: x.b + (y.b - x.b) * weight });
}

export interface ThemeTokens {
  theme: string;
  themeHover: string;
  tableRow: string;
  tableRowHover: string;
  /** Text colour on theme-coloured buttons. */
  onTheme: string;
}

function colorFromConfig(config: Record<string, ConfigValue>, key: string, fallback: string): string {
  const value = config[key];
  if (value === undefined || value === null || value === '') return fallback;
  return toHex(parseHexColor(value, key));
}

/** Maps ftapi.layout.css.color.* to tokens; missing keys take the defaults, invalid ones raise. */
export function themeTokensFromConfig(config: Record<string, ConfigValue>): ThemeTokens {
  const theme = colorFromConfig(config, CONFIG_KEYS.themeColor, DEFAULT_THEME_COLOR);
  const themeHover = colorFromConfig(config, CONFIG_KEYS.themeHoverColor, DEFAULT_THEME_HOVER_COLOR);
  const tableRow = colorFromConfig(config, CONFIG_KEYS.tableRowColor, '#FFFFFF');
  const tableRowHover = colorFromConfig(config, CONFIG_KEYS.tableRowHoverColor, mixColors(theme, '#FFFFFF', 0.9));
  return { theme, themeHover, tableRow, tableRowHover, onTheme: buttonTextColor(theme) };
}

/** The tokens of a configuration; an invalid colour is reported (SPEC §5 raises) and the defaults are kept. */
export function themeTokensOrDefault(config: Record<string, ConfigValue>): ThemeTokens {
  try {
    return themeTokensFromConfig(config);
  } catch (error) {
    console.error(error);
    return themeTokensFromConfig({});
  }
}

/**
 * Fluent UI token overrides for a light theme built from `brandRamp` (web client and add-in): the
 * brand background is exactly the theme colour, its hover the hover colour, and the text on it
 * follows the luminance rule rather than Fluent's fixed white.
 */
export function fluentBrandOverrides(tokens: ThemeTokens) {
  return {
    colorNeutralForegroundOnBrand: tokens.onTheme,
    colorBrandBackground: tokens.theme,
    colorBrandBackgroundHover: tokens.themeHover,
    colorBrandBackgroundPressed: tokens.themeHover,
  };
}

/** CSS custom properties for the tokens ("applied as styling variables", SPEC §3). */
export function themeCssVariables(tokens: ThemeTokens): Record<string, string> {
  return {
    '--kuvert-color-theme': tokens.theme,
    '--kuvert-color-theme-hover': tokens.themeHover,
    '--kuvert-color-table-row': tokens.tableRow,
    '--kuvert-color-table-row-hover': tokens.tableRowHover,
    '--kuvert-color-on-theme': tokens.onTheme,
  };
}

/**
 * A 16-step brand ramp (10…160, dark to light) for Fluent UI's BrandVariants, built so that
 * step 80 (Fluent's primary) is the theme colour and step 70 (its hover) the hover colour.
 */
export function brandRamp(tokens: Pick<ThemeTokens, 'theme' | 'themeHover'>): Record<10 | 20 | 30 | 40 | 50 | 60 | 70 | 80 | 90 | 100 | 110 | 120 | 130 | 140 | 150 | 160, string> {
  const ramp = {} as Record<number, string>;
  for (let step = 10; step <= 160; step += 10) {
    if (step === 80) ramp[step] = tokens.theme;
    else if (step === 70) ramp[step] = tokens.themeHover;
    else if (step < 70) ramp[step] = mixColors(tokens.themeHover, '#000000', ((70 - step) / 60) * 0.85);
    else ramp[step] = mixColors(tokens.theme, '#FFFFFF', ((step - 80) / 80) * 0.95);
  }
  return ramp as ReturnType<typeof brandRamp>;
}
