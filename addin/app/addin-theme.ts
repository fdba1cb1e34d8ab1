import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';
import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import { brandRamp, fluentBrandOverrides, themeTokensOrDefault } from '@shared/theme/theme-rules';

/** The task pane's Fluent theme: the installation's colours (Administration › Theme), as in the web client. */
export function createAddinTheme(config: ConfigProfile): Theme {
  const tokens = themeTokensOrDefault(config);
  return { ...createLightTheme(brandRamp(tokens) as BrandVariants), ...fluentBrandOverrides(tokens) };
}
