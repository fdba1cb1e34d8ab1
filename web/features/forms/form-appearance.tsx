import { FluentProvider, webDarkTheme, webLightTheme, type Theme } from '@fluentui/react-components';
import type { FormAppearance } from '@shared/contract/form-admin';
import type { ReactNode } from 'react';

/**
 * The look of a public form (Layout tab): a nested Fluent theme — dark or light, the primary
 * colour on the brand tokens (buttons, focus, links), the text colour — and the panel's
 * transparency over the page background.
 */
function themeOf(appearance: FormAppearance): Partial<Theme> {
  const base = appearance.darkTheme ? webDarkTheme : webLightTheme;
  const brand = appearance.primaryColor;
  const text = appearance.textColor;
  return {
    ...base,
    ...(brand
      ? { colorBrandBackground: brand, colorBrandBackgroundHover: brand, colorBrandBackgroundPressed: brand, colorBrandForeground1: brand, colorBrandForegroundLink: brand, colorCompoundBrandStroke: brand, colorCompoundBrandBackground: brand }
      : {}),
    ...(text ? { colorNeutralForeground1: text, colorNeutralForeground2: text } : {}),
  };
}

export function AppearanceFrame({ appearance, children }: { appearance: FormAppearance | undefined; children: ReactNode }) {
  if (!appearance) return <>{children}</>;
  const opaque = 100 - appearance.transparency;
  return (
    <FluentProvider theme={themeOf(appearance)} style={{ background: 'transparent' }}>
      <div style={{ background: `color-mix(in srgb, var(--colorNeutralBackground1) ${opaque}%, transparent)`, borderRadius: '8px' }}>{children}</div>
    </FluentProvider>
  );
}
