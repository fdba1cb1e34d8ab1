import { describe, expect, it } from 'vitest';
import { safeContinuePath } from './oidc-sso';

describe('safeContinuePath', () => {
  it('keeps same-site paths with their query', () => {
    expect(safeContinuePath('/settings?x=1')).toBe('/settings?x=1');
    expect(safeContinuePath('/secumails/inbox')).toBe('/secumails/inbox');
  });
  it('never leads to another host', () => {
    for (const evil of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '', 42, undefined]) {
      expect(safeContinuePath(evil)).toBe('/');
    }
  });
  it('refuses absurdly long targets', () => {
    expect(safeContinuePath(`/${'a'.repeat(5000)}`)).toBe('/');
  });
});
