import { describe, expect, it } from 'vitest';
import kat from '../../tests/fixtures/crypto/kat.json';
import { checkKnownAnswers, type KnownAnswers } from './test-helpers/known-answers';

describe('our known-answer vectors (tests/fixtures/crypto/kat.json, also checked in Chromium)', () => {
  it('every frozen vector is reproduced', { timeout: 60_000 }, async () => {
    const results = await checkKnownAnswers(kat as unknown as KnownAnswers);
    expect(results.length).toBeGreaterThan(30);
    for (const result of results) expect(result.actual, result.name).toBe(result.expected);
  });
});
