import { describe, expect, it } from 'vitest';
import vectors from '../../tests/fixtures/crypto/published-vectors.json';
import { checkPublishedVectors } from './test-helpers/published-vectors';

describe('published vectors (RFC 5869 HKDF, RFC 9180 HPKE, Argon2 reference)', () => {
  it('every vector matches', { timeout: 60_000 }, async () => {
    const results = await checkPublishedVectors(vectors as Parameters<typeof checkPublishedVectors>[0]);
    expect(results.length).toBe(3 + 5 + 6);
    for (const result of results) expect(result.actual, result.name).toBe(result.expected);
  });
});
