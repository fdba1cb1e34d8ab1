import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_ACTIONS } from './actions';
import { syncAnalytics, track, trackPageView } from './analytics';

describe('analytics off', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends nothing and loads nothing: track and page views return at once, no request leaves', async () => {
    // Observed, not replaced: any call would still go through.
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const log = vi.spyOn(console, 'error');
    await syncAnalytics(null, 'c5a3e2a0-0000-4000-8000-000000000001');
    for (const key of Object.keys(ANALYTICS_ACTIONS) as (keyof typeof ANALYTICS_ACTIONS)[]) track(ANALYTICS_ACTIONS[key], { n: 1 });
    trackPageView('/secumails/inbox');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchSpy).not.toHaveBeenCalled();
    // Off is not a failure: no "not initialised" line either.
    expect(log).not.toHaveBeenCalled();
  });
});
