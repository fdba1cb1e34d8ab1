import { CONFIG_KEYS } from '@shared/contract/config';
import { SETTING_KEYS } from '@shared/contract/settings';
import { describe, expect, it } from 'vitest';
import { MS_PER_DAY } from '@shared/contract/constants';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { ALL_DEFAULTS, downloadDisclaimerText, settingsConsistencyProblems, settingValueProblem } from './defaults';

describe('setting values', () => {
  it('has a default for every setting key of the contract', () => {
    for (const key of Object.values(SETTING_KEYS)) {
      const present = key in ALL_DEFAULTS || `${key}.en` in ALL_DEFAULTS;
      expect(present, key).toBe(true);
    }
  });

  it('accepts values of the default type, null only where null is the default', () => {
    expect(settingValueProblem(CONFIG_KEYS.maintenanceActivated, true)).toBeNull();
    expect(settingValueProblem(CONFIG_KEYS.maintenanceStartDate, '2026-01-01T00:00:00Z')).toBeNull();
    expect(settingValueProblem(CONFIG_KEYS.maintenanceStartDate, null)).toBeNull();
    expect(settingValueProblem(CONFIG_KEYS.maintenanceActivated, null)).not.toBeNull();
    expect(settingValueProblem(CONFIG_KEYS.maintenanceActivated, 'true')).not.toBeNull();
    expect(settingValueProblem(SETTING_KEYS.passwordMinLength, -1)).not.toBeNull();
    expect(settingValueProblem('ftapi.unknown', 1)).toBe('unknown setting');
  });

  it('checks theme colours are hex', () => {
    expect(settingValueProblem(CONFIG_KEYS.themeColor, '#0B7530')).toBeNull();
    expect(settingValueProblem(CONFIG_KEYS.themeColor, 'green')).not.toBeNull();
    // Issue 28: the maintenance notice's colours too (they go into the page's style).
    for (const key of [CONFIG_KEYS.maintenanceBackgroundColor, CONFIG_KEYS.maintenanceTextColor, CONFIG_KEYS.maintenanceButtonColor]) {
      expect(settingValueProblem(key, '#FFF4CE'), key).toBeNull();
      for (const bad of ['red; background-image: url(https://evil.test/x)', 'FFF4CE', '#FFF4C', '#FFF4CEZ', '']) expect(settingValueProblem(key, bad), `${key} ${bad}`).toBe('must be a hex colour like #19853F');
    }
  });

  it('allows only the two mail transports', () => {
    expect(settingValueProblem(SETTING_KEYS.mailTransport, 'smtp')).toBeNull();
    expect(settingValueProblem(SETTING_KEYS.mailTransport, 'mailbox')).toBeNull();
    expect(settingValueProblem(SETTING_KEYS.mailTransport, 'sendmail')).not.toBeNull();
  });

  it('refuses a maximum validity shorter than the minimum, naming the maximum', () => {
    const at = (min: number, max: number) => ({ ...ALL_DEFAULTS, [SETTING_KEYS.deliveryCleanupExpirationMin]: min, [SETTING_KEYS.deliveryCleanupExpirationMax]: max });
    expect(settingsConsistencyProblems(ALL_DEFAULTS)).toEqual([]);
    expect(settingsConsistencyProblems(at(5 * MS_PER_DAY, 5 * MS_PER_DAY))).toEqual([]);
    expect(settingsConsistencyProblems(at(6 * MS_PER_DAY, 5 * MS_PER_DAY)).map((p) => p.key)).toEqual([SETTING_KEYS.deliveryCleanupExpirationMax]);
  });

  it('refuses the download disclaimer switched on without any text, naming the switch', () => {
    const on = (texts: Partial<Record<'de' | 'en' | 'fr', string>>) => ({
      ...ALL_DEFAULTS,
      [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: true,
      ...Object.fromEntries(Object.entries(texts).map(([language, text]) => [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.${language}`, text])),
    });
    expect(settingsConsistencyProblems(on({}))).toEqual([{ key: EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled, problem: 'needs the disclaimer text in at least one language' }]);
    expect(settingsConsistencyProblems(on({ de: '  \n ', en: '', fr: '\t' })).map((p) => p.key)).toEqual([EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]);
    expect(settingsConsistencyProblems(on({ fr: 'Conditions' }))).toEqual([]);
    // Off with empty texts is the default.
    expect(settingsConsistencyProblems({ ...ALL_DEFAULTS, [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: false })).toEqual([]);
  });

  it('answers the disclaimer in the language asked, else English, else the first language with a text', () => {
    const texts = (values: Partial<Record<'de' | 'en' | 'fr', string>>) => ({
      ...ALL_DEFAULTS,
      ...Object.fromEntries(Object.entries(values).map(([language, text]) => [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.${language}`, text])),
    });
    expect(downloadDisclaimerText(texts({ de: 'Bedingungen', en: 'Terms', fr: 'Conditions' }), 'fr')).toBe('Conditions');
    expect(downloadDisclaimerText(texts({ de: 'Bedingungen', en: 'Terms', fr: ' ' }), 'fr')).toBe('Terms');
    expect(downloadDisclaimerText(texts({ de: '', en: '', fr: 'Conditions' }), 'de')).toBe('Conditions');
    expect(downloadDisclaimerText(texts({}), 'en')).toBe('');
  });
});
