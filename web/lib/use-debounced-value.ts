import { useEffect, useState } from 'react';

/** Typing pause after which a search box's value is used: short enough to feel live, long enough that a word is one request. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `value`, once it has stayed the same for `delayMs` (a search box queries the server once per
 * pause, not per keystroke). Values for which `immediate` says so pass at once (e.g. clearing).
 */
export function useDebouncedValue<T>(value: T, delayMs: number, immediate?: (value: T) => boolean): T {
  const [settled, setSettled] = useState(value);
  const now = immediate?.(value) ?? false;
  useEffect(() => {
    if (now) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs, now]);
  return now ? value : settled;
}
