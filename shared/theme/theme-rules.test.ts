import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, DEFAULT_THEME_COLOR, DEFAULT_THEME_HOVER_COLOR, TOAST, TOOLTIP, DRAWER } from './constants';
import { brandRamp, buttonTextColor, fluentBrandOverrides, InvalidThemeColorError, luminance, parseHexColor, themeTokensFromConfig, themeTokensOrDefault } from './theme-rules';

describe('theme rules (SPEC §3, §5, §9)', () => {
  it('uses the default colours when the profile has none', () => {
    const tokens = themeTokensFromConfig({});
    expect(tokens.theme).toBe(DEFAULT_THEME_COLOR);
    expect(tokens.themeHover).toBe(DEFAULT_THEME_HOVER_COLOR);
    expect(DEFAULT_THEME_COLOR).toBe('#19853F');
    expect(DEFAULT_THEME_HOVER_COLOR).toBe('#0B7530');
  });

  it('maps ftapi.layout.css.color.* to tokens', () => {
    const tokens = themeTokensFromConfig({
      'ftapi.layout.css.color.theme': '#336699',
      'ftapi.layout.css.color.themeHover': '#224477',
      'ftapi.layout.css.color.tableRow': 'fff',
      'ftapi.layout.css.color.tableRowHover': '#eeeeee',
    });
    expect(tokens).toEqual({ theme: '#336699', themeHover: '#224477', tableRow: '#FFFFFF', tableRowHover: '#EEEEEE', onTheme: '#FFFFFF' });
  });

  it('raises on an invalid hex colour', () => {
    expect(() => themeTokensFromConfig({ 'ftapi.layout.css.color.theme': 'green' })).toThrow(InvalidThemeColorError);
    expect(() => parseHexColor('#12345')).toThrow(InvalidThemeColorError);
    expect(() => parseHexColor(42)).toThrow(InvalidThemeColorError);
  });

  it('uses light button text at luminance ≤ 186 and dark above', () => {
    // #BABABA has luminance exactly 186.
    expect(luminance('#BABABA')).toBeCloseTo(186, 5);
    expect(buttonTextColor('#BABABA')).toBe('#FFFFFF');
    expect(buttonTextColor('#BBBBBB')).toBe('#000000');
    expect(buttonTextColor(DEFAULT_THEME_COLOR)).toBe('#FFFFFF');
    expect(buttonTextColor('#FFFF00')).toBe('#000000');
  });

  it('builds a brand ramp whose primary step is the theme colour', () => {
    const ramp = brandRamp({ theme: '#19853F', themeHover: '#0B7530' });
    expect(ramp[80]).toBe('#19853F');
    expect(ramp[70]).toBe('#0B7530');
    expect(Object.keys(ramp)).toHaveLength(16);
    expect(luminance(ramp[10])).toBeLessThan(luminance(ramp[160]));
  });

  it('exposes the SPEC §9 figures', () => {
    expect(BREAKPOINTS).toEqual({ sm: 640, md: 768, lg: 1024 });
    expect(TOAST).toMatchObject({ durationMs: 5000, limit: 1, removeDelayMs: 1_000_000, hotkey: 'F8', swipeThresholdPx: 50 });
    expect(TOOLTIP).toEqual({ openDelayMs: 700, skipDelayMs: 300 });
    expect(DRAWER).toEqual({ animationDurationS: 0.5, closeThreshold: 0.25, scrollLockTimeoutMs: 100 });
  });
});

describe('theme for Fluent UI and fallbacks', () => {
  it('overrides the brand background with the exact colours and the luminance rule for text on it', () => {
    expect(fluentBrandOverrides(themeTokensFromConfig({ 'ftapi.layout.css.color.theme': '#EEDD88', 'ftapi.layout.css.color.themeHover': '#CCBB66' }))).toEqual({
      colorNeutralForegroundOnBrand: '#000000',
      colorBrandBackground: '#EEDD88',
      colorBrandBackgroundHover: '#CCBB66',
      colorBrandBackgroundPressed: '#CCBB66',
    });
  });

  it('keeps the default look when a stored colour is invalid', () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (error: unknown) => void errors.push(error);
    try {
      expect(themeTokensOrDefault({ 'ftapi.layout.css.color.theme': 'green' }).theme).toBe('#19853F');
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
