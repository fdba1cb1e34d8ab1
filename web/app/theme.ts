import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';
import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import { brandRamp, fluentBrandOverrides, themeCssVariables, themeTokensOrDefault } from '@shared/theme/theme-rules';

export interface AppTheme {
  fluent: Theme;
  cssVariables: Record<string, string>;
}

/** Fluent UI theme and CSS variables from ftapi.layout.css.color.* (DESIGN §6); an invalid colour keeps the default look. */
export function createAppTheme(config: ConfigProfile): AppTheme {
  const tokens = themeTokensOrDefault(config);
  const fluent: Theme = { ...createLightTheme(brandRamp(tokens) as BrandVariants), ...fluentBrandOverrides(tokens) };
  return { fluent, cssVariables: themeCssVariables(tokens) };
}
