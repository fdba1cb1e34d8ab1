import { SECRET_MASK, SETTING_KEYS } from '@shared/contract/settings';

/**
 * Secrets inside settings: the password of the SMTP URL. Settings answers show it as SECRET_MASK
 * (an administrator's screen, a screenshot or a support export never carry it); a value sent back
 * with the mask keeps the stored password, so editing the host does not mean typing it again.
 */

/** `scheme://user:password@rest`: the password is group 2. */
const URL_WITH_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)([^@/]*)(@.*)$/i;

const maskUrlPassword = (url: string) => url.replace(URL_WITH_PASSWORD, (_all, head: string, _password: string, tail: string) => `${head}${SECRET_MASK}${tail}`);

/** The settings as an answer may show them. */
export function maskSecretSettings<T>(settings: Record<string, T>): Record<string, T> {
  const url = settings[SETTING_KEYS.mailSmtpUrl];
  if (typeof url !== 'string') return settings;
  return { ...settings, [SETTING_KEYS.mailSmtpUrl]: maskUrlPassword(url) as T };
}

/**
 * An update with the stored password put back where it carries the mask; a problem when there is
 * no stored password to put back.
 */
export function restoreMaskedSecrets<T>(update: Record<string, T>, stored: Record<string, unknown>): { update: Record<string, T> } | { problem: { key: string; problem: string } } {
  const key = SETTING_KEYS.mailSmtpUrl;
  const url = update[key];
  const sent = typeof url === 'string' ? URL_WITH_PASSWORD.exec(url) : null;
  if (!sent || sent[2] !== SECRET_MASK) return { update };
  const current = stored[key];
  const kept = typeof current === 'string' ? URL_WITH_PASSWORD.exec(current) : null;
  if (!kept) return { problem: { key, problem: 'has no stored password to keep: enter the password' } };
  return { update: { ...update, [key]: `${sent[1]}${kept[2]}${sent[3]}` as T } };
}
