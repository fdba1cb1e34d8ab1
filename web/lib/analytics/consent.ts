import { useSyncExternalStore } from 'react';

/**
 * The visitor's answer to "may usage analytics run?" (issue 33 §2): nothing of the analytics SDK
 * loads and nothing is sent before it is `granted`. Kept in this browser's localStorage (per
 * device, like the language), so the question is asked once, before sign-in too, and a signed-in
 * user changes it on the settings page.
 */
export type AnalyticsConsent = 'granted' | 'denied';

export const ANALYTICS_CONSENT_KEY = 'kuvert.analyticsConsent';

const listeners = new Set<() => void>();
/** The answer when localStorage is blocked: it holds for this page only. */
let memoryAnswer: AnalyticsConsent | null = null;

export function readAnalyticsConsent(): AnalyticsConsent | null {
  try {
    const value = window.localStorage.getItem(ANALYTICS_CONSENT_KEY);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null; // storage blocked: no answer, so analytics stays off
  }
}

export function setAnalyticsConsent(value: AnalyticsConsent): void {
  try {
    window.localStorage.setItem(ANALYTICS_CONSENT_KEY, value);
  } catch {
    memoryAnswer = value;
  }
  for (const listener of listeners) listener();
}

const currentConsent = (): AnalyticsConsent | null => readAnalyticsConsent() ?? memoryAnswer;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's answer counts here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === ANALYTICS_CONSENT_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useAnalyticsConsent(): AnalyticsConsent | null {
  return useSyncExternalStore(subscribe, currentConsent, () => null);
}
