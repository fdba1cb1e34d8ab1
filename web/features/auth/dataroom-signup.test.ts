import { describe, expect, it } from 'vitest';
import { safeBackPath } from './back-path';

describe('dataroom-signup-dar back path', () => {
  it('keeps same-origin paths and drops anything that could leave the site', () => {
    expect(safeBackPath('/datarooms/r-1/folders/f-1')).toBe('/datarooms/r-1/folders/f-1');
    expect(safeBackPath('/secumails/inbox?x=1')).toBe('/secumails/inbox?x=1');
    for (const bad of [null, '', 'datarooms', 'https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)']) expect(safeBackPath(bad)).toBeNull();
  });
});
