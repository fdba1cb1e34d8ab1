import { z } from 'zod';
import { ConfigValueSchema } from './config';

/**
 * Settings that are not part of the public configuration profile (our design). They
 * are changed with `PUT /api/2/admin/settings` (ROLE_ADMIN), which also accepts every
 * `ftapi.*` key of CONFIG_KEYS (per-language keys with `.de|.en|.fr`).
 */
export const SETTING_KEYS = {
  organisationName: 'kuvert.organisation.name',
  /** Login disclaimer (DESIGN: escalation step 6); text per language with `.de|.en|.fr`. */
  loginDisclaimerEnabled: 'ftapi.login.disclaimer.enabled',
  loginDisclaimerText: 'ftapi.login.disclaimer.text',
  /** Every user must sign in with an authentication app (TOTP). */
  totpRequired: 'kuvert.security.totp.required',
  passwordMinLength: 'kuvert.passwordPolicy.minLength',
  passwordRequireUppercase: 'kuvert.passwordPolicy.requireUppercase',
  passwordRequireLowercase: 'kuvert.passwordPolicy.requireLowercase',
  passwordRequireDigit: 'kuvert.passwordPolicy.requireDigit',
  passwordRequireSpecial: 'kuvert.passwordPolicy.requireSpecial',
  /** Mail chosen in the installation wizard: 'mailbox' or 'smtp' (SMTP_URL wins when set). */
  mailTransport: 'kuvert.mail.transport',
  mailSmtpUrl: 'kuvert.mail.smtpUrl',
  mailFrom: 'kuvert.mail.from',
  allowSecurityLevel1: 'kuvert.delivery.allowSecurityLevel1',
  allowSecurityLevel2: 'kuvert.delivery.allowSecurityLevel2',
  allowSecurityLevel3: 'kuvert.delivery.allowSecurityLevel3',
  allowSecurityLevel4: 'kuvert.delivery.allowSecurityLevel4',
  deliveryCleanupEnabled: 'kuvert.delivery.cleanupEnabled',
  deliveryCleanupCustomExpiration: 'kuvert.delivery.cleanupCustomExpiration',
  /** Milliseconds. */
  deliveryCleanupExpirationMin: 'kuvert.delivery.cleanupExpirationMin',
  /** Milliseconds. */
  deliveryCleanupExpirationMax: 'kuvert.delivery.cleanupExpirationMax',
  /** SecuPass policy (GET /secupass/policy); checked in the client, the server never sees the passphrase. */
  secupassMinLength: 'ftapi.secupass.policy.minLength',
  secupassRequireLowercase: 'ftapi.secupass.policy.requireLowercase',
  secupassRequireUppercase: 'ftapi.secupass.policy.requireUppercase',
  secupassRequireDigit: 'ftapi.secupass.policy.requireDigit',
  secupassRequireSpecial: 'ftapi.secupass.policy.requireSpecial',
  /** zxcvbn score 0–4. */
  secupassMinStrength: 'ftapi.secupass.policy.minStrength',
} as const;

/** GET (every setting) and PUT (a partial map) of the settings; ROLE_ADMIN. */
export const ADMIN_SETTINGS_PATH = '/admin/settings';

/** One refused value of a PUT: the key and why (400 ValidationException, `metadata.problems`). */
export interface SettingProblem {
  key: string;
  problem: string;
}

/** PUT /api/2/admin/settings body: a partial map key → value. Unknown keys are refused (400). */
export const AdminSettingsUpdateSchema = z
  .record(z.string().max(200), ConfigValueSchema)
  .meta({ id: 'AdminSettingsUpdate' });
export type AdminSettingsUpdate = z.infer<typeof AdminSettingsUpdateSchema>;

/** GET/PUT /api/2/admin/settings answer: every setting with its current value. */
/**
 * Stands for a stored secret in settings answers (the password inside `kuvert.mail.smtpUrl`):
 * a value sent back with it keeps the stored secret (server/settings/secret-settings.ts).
 */
export const SECRET_MASK = '********';

export const AdminSettingsResponseSchema = z
  .object({ settings: z.record(z.string(), ConfigValueSchema) })
  .meta({ id: 'AdminSettingsResponse' });
export type AdminSettingsResponse = z.infer<typeof AdminSettingsResponseSchema>;

/**
 * GET /admin/system/status (ROLE_ADMIN): what an administrator must know about the running
 * server. `mailboxNotLocal`: mail goes to the local mailbox folder (no SMTP) while the public
 * URL is not this machine, so users never get their mail and only administrators can read it.
 */
export const ADMIN_SYSTEM_STATUS_PATH = '/admin/system/status';
export const SYSTEM_WARNINGS = ['mailboxNotLocal'] as const;
export type SystemWarning = (typeof SYSTEM_WARNINGS)[number];
export const AdminSystemStatusSchema = z
  .object({ warnings: z.array(z.enum(SYSTEM_WARNINGS)) })
  .meta({ id: 'AdminSystemStatus' });
export type AdminSystemStatus = z.infer<typeof AdminSystemStatusSchema>;
