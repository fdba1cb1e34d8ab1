import { describe, expect, it } from 'vitest';
import { LOGIN_DELAY_FREE_FAILURES, loginDelayAfter } from './login-throttle';

describe('loginDelayAfter', () => {
  const options = { delayMs: 1_000, maxDelayMs: 300_000 };

  it('is free up to the free failures, then starts at the first delay and doubles up to the maximum', () => {
    for (let n = 0; n < LOGIN_DELAY_FREE_FAILURES; n++) expect(loginDelayAfter(n, options)).toBe(0);
    expect(loginDelayAfter(LOGIN_DELAY_FREE_FAILURES, options)).toBe(1_000);
    expect(loginDelayAfter(LOGIN_DELAY_FREE_FAILURES + 1, options)).toBe(2_000);
    expect(loginDelayAfter(LOGIN_DELAY_FREE_FAILURES + 3, options)).toBe(8_000);
    expect(loginDelayAfter(LOGIN_DELAY_FREE_FAILURES + 20, options)).toBe(300_000);
    expect(loginDelayAfter(10_000, options)).toBe(300_000);
  });

  it('a first delay of 0 turns the delays off', () => {
    expect(loginDelayAfter(LOGIN_DELAY_FREE_FAILURES + 5, { delayMs: 0, maxDelayMs: 300_000 })).toBe(0);
  });
});
