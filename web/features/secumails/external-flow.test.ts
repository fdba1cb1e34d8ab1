import { describe, expect, it } from 'vitest';
import { deliveryPathFor, disclaimerPath, emailPromptPath, nextPathFor, signupPathFor, type ExternalFlowState } from './external-flow';

const base: ExternalFlowState = {
  deliveryUuid: 'd-1',
  shareUuid: 's-1',
  securityLevel: 10,
  language: 'en',
  next: 'signup',
  disclaimer: null,
  sms: { required: false, phoneHint: null },
  token: 'tok en',
  email: 'Ida@Outside.test',
  disclaimerAccepted: false,
};

describe('external recipient flow', () => {
  it('builds the SPEC §2 paths with and without the locale', () => {
    expect(emailPromptPath('s-1', 'de')).toBe('/secumails/de/email-prompt/s-1');
    expect(disclaimerPath('d-1')).toBe('/secumails/download-disclaimer/d-1');
  });

  it('keeps the token in the fragment for level 1 only', () => {
    expect(deliveryPathFor({ ...base, securityLevel: 0 }, 'fr')).toBe('/secumails/fr/download?deliveryUuid=d-1&shareUuid=s-1#token=tok%20en');
    expect(deliveryPathFor(base, 'fr')).toBe('/secumails/fr/download?deliveryUuid=d-1&shareUuid=s-1');
  });

  it('goes to the disclaimer first while it is not accepted', () => {
    const withDisclaimer = { ...base, disclaimer: { text: 'Terms' } };
    expect(nextPathFor(withDisclaimer, 'en', null)).toBe('/secumails/en/download-disclaimer/d-1');
    expect(nextPathFor({ ...withDisclaimer, disclaimerAccepted: true }, 'en', null)).toBe('/auth/delivery-signup?deliveryUuid=d-1');
  });

  it('then to the download (level 1), sign-in (registered), signup or its SMS variant', () => {
    expect(nextPathFor({ ...base, securityLevel: 0, next: 'download' }, undefined, null)).toBe('/secumails/download?deliveryUuid=d-1&shareUuid=s-1#token=tok%20en');
    expect(nextPathFor({ ...base, next: 'login' }, 'en', null)).toBe(`/auth/login?continue=${encodeURIComponent('/secumails/en/download?deliveryUuid=d-1&shareUuid=s-1')}`);
    expect(signupPathFor({ ...base, sms: { required: true, phoneHint: '•••567' } })).toBe('/auth/delivery-signup-dar?deliveryUuid=d-1');
  });

  it('skips sign-in when the recipient is signed in already (any case), not when someone else is', () => {
    expect(nextPathFor({ ...base, next: 'login' }, 'en', 'ida@outside.TEST')).toBe('/secumails/en/download?deliveryUuid=d-1&shareUuid=s-1');
    expect(nextPathFor({ ...base, next: 'login' }, 'en', 'bob@example.test')).toMatch(/^\/auth\/login\?continue=/);
  });
});
