/** Theme and UI figures of SPEC §9, named so nobody retypes a magic number. */

/** Default brand colour and its hover shade (SPEC §9). */
export const DEFAULT_THEME_COLOR = '#19853F';
export const DEFAULT_THEME_HOVER_COLOR = '#0B7530';

/** At or below this perceived luminance (0–255) button text is light (SPEC §9). */
export const LIGHT_TEXT_LUMINANCE_THRESHOLD = 186;

/** Layout breakpoints in CSS pixels (SPEC §9). */
export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024 } as const;
export type Breakpoint = keyof typeof BREAKPOINTS;
export const mediaQueryMinWidth = (breakpoint: Breakpoint): string => `@media (min-width: ${BREAKPOINTS[breakpoint]}px)`;
/** Below a breakpoint (the phone layouts): the complement of `mediaQueryMinWidth`. */
export const mediaQueryBelow = (breakpoint: Breakpoint): string => `@media (max-width: ${BREAKPOINTS[breakpoint] - 0.02}px)`;

/** Toasts: shown 5 s, one at a time, F8 focuses them (SPEC §9). */
export const TOAST = {
  durationMs: 5000,
  limit: 1,
  /** How long a dismissed toast stays mounted (effectively "until replaced"). */
  removeDelayMs: 1_000_000,
  hotkey: 'F8',
  swipeThresholdPx: 50,
} as const;

/** Tooltips (SPEC §9). */
export const TOOLTIP = { openDelayMs: 700, skipDelayMs: 300 } as const;

/** Drawer (SPEC §9): 0.5 s animation, closes past a quarter swipe, scroll lock settles after 100 ms. */
export const DRAWER = { animationDurationS: 0.5, closeThreshold: 0.25, scrollLockTimeoutMs: 100 } as const;

/** Button and alert variants (SPEC §9). */
export const BUTTON_VARIANTS = ['default', 'secondary', 'tertiary', 'critical'] as const;
export const BUTTON_SIZES = ['lg', 'default', 'sm'] as const;
export const ALERT_TYPES = ['success', 'warning', 'error', 'info'] as const;
export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];
export type ButtonSize = (typeof BUTTON_SIZES)[number];
export type AlertType = (typeof ALERT_TYPES)[number];
