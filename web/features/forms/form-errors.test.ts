import { ApiError } from '@shared/api/api-error';
import de from '@locales/de/formsShare.json';
import en from '@locales/en/formsShare.json';
import fr from '@locales/fr/formsShare.json';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { formErrorMessage } from './form-errors';

const refusal = (status: number, error: string, metadata: Record<string, unknown> = {}) =>
  new ApiError({ status, message: error, error: { uuid: 'u', requestUri: '/api/2/forms/x/submit', error, message: error, metadata }, headers: new Headers() });

describe('formErrorMessage: the public form page message of a refused submission', () => {
  it('says the rate limit wait in whole minutes, rounded up, in each language', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { formsShare: en }, de: { formsShare: de }, fr: { formsShare: fr } } });
    const { key, values } = formErrorMessage(refusal(429, 'RateLimitExceededException', { retryAfterSeconds: 598 }));
    expect(key).toBe('formsShare:errors.rateLimited');
    expect(values).toEqual({ count: 10 });
    expect(i18n.t(key, values)).toBe('Too many submissions from your address. Please try again in 10 minutes.');
    expect(i18n.t(key, { ...values, lng: 'de' })).toContain('in 10 Minuten');
    expect(i18n.t(key, { ...values, lng: 'fr' })).toContain('dans 10 minutes');
    const soon = formErrorMessage(refusal(429, 'RateLimitExceededException', { retryAfterSeconds: 12 }));
    expect(i18n.t(soon.key, soon.values)).toBe('Too many submissions from your address. Please try again in 1 minute.');
  });

  it('keeps the figures of other refusals', () => {
    expect(formErrorMessage(refusal(400, 'FormRecipientWithoutE2eException', { recipients: ['a@x.test', 'b@x.test'] })).values).toMatchObject({ recipients: 'a@x.test, b@x.test' });
  });
});
