/** Constants of the product (SPEC §6, §9) shared by server, web client and add-in. */

/** Base path of every product call (SPEC §7). */
export const API_BASE = '/api/2';

/** Keep-alive interval while a user is signed in (SPEC §4, §9). */
export const KEEP_ALIVE_INTERVAL_MS = 60_000;

/** One day in milliseconds: cleanup bounds are converted with it, rounded up (SPEC §9). */
export const MS_PER_DAY = 86_400_000;

/** Interface languages; English is the fallback (SPEC §1, §9). */
export const LANGUAGES = ['de', 'en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** Reduces any language code ("de-AT", "FR", "pt") to de, fr or en, else en (SPEC §1). */
export function reduceLanguage(code: string | null | undefined): Language {
  const base = (code ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : FALLBACK_LANGUAGE;
}

/** Role names exactly as SPEC §6 lists them. */
export const ROLE_NAMES = [
  'ROLE_ADMIN',
  'ROLE_ROOT',
  'ROLE_USER_ADMIN',
  'ROLE_ANONYMOUS',
  'ROLE_UI_USER',
  'ROLE_SECUFORMS',
  'ROLE_SUBMITTER',
  'ROLE_SUBMITBOX_OWNER',
  'ROLE_SECUROOMS_USER',
  'ROLE_SECUROOMS_CREATOR',
  'ROLE_SECUROOMS_SHARER',
  'config.group.datarooms',
  'ROLE_SENDER',
  'ROLE_SENDER_EXTERNAL',
  'ROLE_RECEIVER',
  'ROLE_RECEIVER_ANONYMOUS',
  'ROLE_OUTLOOK',
  'ROLE_SHARES_CAN_CREATE',
  'ROLE_SHARES_CAN_INVITE',
  'ROLE_SHARES_CAN_WRITE',
  'ROLE_SECUFLOWS_ACCESS',
  'config.group.reporting',
  'config.group.remoting',
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** Security level enum values on the wire (SPEC §4). The minimal level is the first allowed in this order. */
export const SECURITY_LEVELS = { LEVEL_1: 0, LEVEL_2: 10, LEVEL_3: 20, LEVEL_4: 30 } as const;
export type SecurityLevelName = keyof typeof SECURITY_LEVELS;

/** Authentication app (TOTP) code length (SPEC §9). */
export const AUTH_APP_CODE_LENGTH = 6;

/** Failed sign-ins for one account or one address before a captcha is required (DESIGN §9). */
export const CAPTCHA_AFTER_FAILED_LOGINS = 3;
