import { CONFIG_KEYS } from '@shared/contract/config';
import { SETTING_KEYS } from '@shared/contract/settings';
import { describe, expect, it } from 'vitest';
import { ALL_DEFAULTS, settingValueProblem } from './defaults';

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
  });
});
