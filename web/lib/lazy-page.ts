import type { ComponentType } from 'react';

/** Name of the window event a failed page-chunk load dispatches (SPEC §2; like Vite's vite:preloadError). */
export const PRELOAD_ERROR_EVENT = 'preloadError';

export type PreloadErrorEvent = Event & { payload: unknown };

/**
 * Runs a chunk import; on failure dispatches a cancelable `preloadError` event on window
 * carrying the error as `payload`. If no listener calls preventDefault the error is thrown
 * (the route's error boundary shows it); a listener may e.g. reload the page after a deploy.
 */
export async function importWithPreloadEvent<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const event = new Event(PRELOAD_ERROR_EVENT, { cancelable: true }) as PreloadErrorEvent;
    event.payload = error;
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
    // Handled: never settle, the handler is taking over (e.g. reloading).
    return new Promise<T>(() => {});
  }
}

/** A react-router `lazy` function that loads the named component export of a page module. */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, exportName: keyof M & string) {
  return async () => {
    const module = await importWithPreloadEvent(load);
    return { Component: module[exportName] as ComponentType };
  };
}
