import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importWithPreloadEvent, PRELOAD_ERROR_EVENT, type PreloadErrorEvent } from './lazy-page';

describe('chunk load failure (SPEC §2)', () => {
  let target: EventTarget;
  beforeEach(() => {
    target = new EventTarget();
    (globalThis as { window?: EventTarget }).window = target;
  });
  afterEach(() => {
    delete (globalThis as { window?: EventTarget }).window;
  });

  it('passes a successful import through', async () => {
    await expect(importWithPreloadEvent(async () => ({ Page: 1 }))).resolves.toEqual({ Page: 1 });
  });

  it('dispatches a cancelable preloadError event with the error and throws when unhandled', async () => {
    const failure = new Error('Loading chunk 42 failed');
    let seen: PreloadErrorEvent | null = null;
    target.addEventListener(PRELOAD_ERROR_EVENT, (event) => void (seen = event as PreloadErrorEvent));
    await expect(importWithPreloadEvent(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(seen).not.toBeNull();
    expect(seen!.cancelable).toBe(true);
    expect(seen!.payload).toBe(failure);
  });

  it('does not throw when a listener handles it', async () => {
    target.addEventListener(PRELOAD_ERROR_EVENT, (event) => event.preventDefault());
    const outcome = await Promise.race([
      importWithPreloadEvent(() => Promise.reject(new Error('x'))).then(() => 'settled', () => 'thrown'),
      new Promise((resolve) => setTimeout(() => resolve('pending'), 50)),
    ]);
    expect(outcome).toBe('pending');
  });
});
