import { ApiError } from '@shared/api/api-error';
import de from '@locales/de/formsShare.json';
import en from '@locales/en/formsShare.json';
import fr from '@locales/fr/formsShare.json';
import formsDe from '@locales/de/forms.json';
import formsEn from '@locales/en/forms.json';
import formsFr from '@locales/fr/forms.json';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { formErrorMessage, numberRangeMessage } from './form-errors';

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

describe('numberRangeMessage: a number out of range names the range', () => {
  it('says both bounds, or the one there is, in the language of the page', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { forms: formsEn }, de: { forms: formsDe }, fr: { forms: formsFr } } });
    const say = (field: { min: number | null; max: number | null }, lng: string) => {
      const message = numberRangeMessage(field, lng)!;
      return i18n.t(message.key, { ...message.values, lng });
    };
    expect(say({ min: 18, max: 99 }, 'en')).toBe('Please enter a number from 18 to 99');
    expect(say({ min: 0.5, max: 2500 }, 'de')).toBe('Bitte geben Sie eine Zahl von 0,5 bis 2.500 ein');
    expect(say({ min: 1, max: null }, 'fr')).toBe('Veuillez saisir un nombre supérieur ou égal à 1');
    expect(say({ min: null, max: 10 }, 'en')).toBe('Please enter a number of at most 10');
    expect(numberRangeMessage({ min: null, max: null }, 'en')).toBeNull();
    expect(numberRangeMessage(undefined, 'en')).toBeNull();
  });
});
