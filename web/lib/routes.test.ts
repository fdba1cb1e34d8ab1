import { describe, expect, it } from 'vitest';
import { mergeHandles } from './route-handle';
import { loginPathFor, safeContinueTarget } from './routes';

describe('routes', () => {
  it('builds the login address with the full target path as continue', () => {
    expect(loginPathFor('/secumails/inbox?page=2#x')).toBe('/auth/login?continue=%2Fsecumails%2Finbox%3Fpage%3D2%23x');
  });
  it('accepts only same-site, non-auth continue targets', () => {
    expect(safeContinueTarget('/settings?tab=1')).toBe('/settings?tab=1');
    expect(safeContinueTarget('https://evil.example')).toBeNull();
    expect(safeContinueTarget('//evil.example')).toBeNull();
    expect(safeContinueTarget('/\\evil.example')).toBeNull();
    expect(safeContinueTarget('/auth/login')).toBeNull();
    expect(safeContinueTarget(null)).toBeNull();
    // Signed-in auth pages (passphrase screens) are valid targets, e.g. from an invitation mail.
    expect(safeContinueTarget('/auth/create-secupass?x=1')).toBe('/auth/create-secupass?x=1');
    expect(safeContinueTarget('/auth/set-secupass-success')).toBeNull();
  });
  it('merges route handles, inner ones winning', () => {
    expect(mergeHandles([{ auth: true, layout: 'auth' }, undefined, { titleKey: 'x', layout: 'app' }])).toEqual({ auth: true, layout: 'app', titleKey: 'x' });
  });
});
