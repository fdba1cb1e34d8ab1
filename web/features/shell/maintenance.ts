import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import { CONFIG_KEYS } from '@shared/contract/config';
import type { Language } from '@shared/contract/constants';
import { isHexColor } from '@shared/theme/theme-rules';

export interface MaintenanceNotice {
  title: string;
  content: string;
  backgroundColor: string;
  textColor: string;
  buttonColor: string;
  /** Identifies this notice so a dismissal does not hide a later, different one. */
  id: string;
}

const DEFAULT_COLORS = { backgroundColor: '#FFF4CE', textColor: '#323130', buttonColor: '#323130' };

function text(config: ConfigProfile, key: string, language: Language): string {
  for (const candidate of [`${key}.${language}`, `${key}.en`, key]) {
    const value = config[candidate];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
}

function color(config: ConfigProfile, key: string, fallback: string): string {
  const value = config[key];
  return isHexColor(value) ? (value.startsWith('#') ? value : `#${value}`) : fallback;
}

function parseDate(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const time = typeof value === 'number' ? value : Date.parse(String(value));
  return Number.isNaN(time) ? null : time;
}

/**
 * The maintenance notice to show now, or null (SPEC §4): only when activated, and only between
 * start and expiration date; a missing (null) bound does not limit.
 */
export function activeMaintenanceNotice(config: ConfigProfile, language: Language, now: number): MaintenanceNotice | null {
  const activated = config[CONFIG_KEYS.maintenanceActivated];
  if (activated !== true && activated !== 'true') return null;
  const start = parseDate(config[CONFIG_KEYS.maintenanceStartDate]);
  const end = parseDate(config[CONFIG_KEYS.maintenanceExpirationDate]);
  if (start !== null && now < start) return null;
  if (end !== null && now > end) return null;
  const title = text(config, CONFIG_KEYS.maintenanceTitle, language);
  const content = text(config, CONFIG_KEYS.maintenanceContent, language);
  if (!title && !content) return null;
  return {
    title,
    content,
    backgroundColor: color(config, CONFIG_KEYS.maintenanceBackgroundColor, DEFAULT_COLORS.backgroundColor),
    textColor: color(config, CONFIG_KEYS.maintenanceTextColor, DEFAULT_COLORS.textColor),
    buttonColor: color(config, CONFIG_KEYS.maintenanceButtonColor, DEFAULT_COLORS.buttonColor),
    id: `${start ?? ''}|${end ?? ''}|${title}|${content}`,
  };
}
