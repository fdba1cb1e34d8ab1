import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';
import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import { brandRamp, themeCssVariables, themeTokensFromConfig, type ThemeTokens } from '@shared/theme/theme-rules';

export interface AppTheme {
  fluent: Theme;
  cssVariables: Record<string, string>;
}

function tokensOrDefault(config: ConfigProfile): ThemeTokens {
  try {
    return themeTokensFromConfig(config);
  } catch (error) {
    // An invalid colour raises (SPEC §5); the app reports it and keeps the default look.
    console.error(error);
    return themeTokensFromConfig({});
  }
}

/** Fluent UI theme and CSS variables from ftapi.layout.css.color.* (DESIGN §6). */
export function createAppTheme(config: ConfigProfile): AppTheme {
  const tokens = tokensOrDefault(config);
  const fluent = createLightTheme(brandRamp(tokens) as BrandVariants);
  // Button text follows the luminance rule rather than Fluent's fixed white.
  fluent.colorNeutralForegroundOnBrand = tokens.onTheme;
  fluent.colorBrandBackground = tokens.theme;
  fluent.colorBrandBackgroundHover = tokens.themeHover;
  fluent.colorBrandBackgroundPressed = tokens.themeHover;
  return { fluent, cssVariables: themeCssVariables(tokens) };
}
