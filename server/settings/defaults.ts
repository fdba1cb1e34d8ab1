import { CONFIG_KEYS, type ConfigValue } from '@shared/contract/config';
import { FALLBACK_LANGUAGE, LANGUAGES, MS_PER_DAY, type Language } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS, isValidMimeType } from '@shared/contract/deliveries';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { SETTING_KEYS } from '@shared/contract/settings';
import { USER_QUOTA_SETTING_KEY } from '@shared/contract/storage-quotas';
import { SIGNUP_SETTING_KEY } from '@shared/contract/signup';
import { OPERATOR_PROFILE_KEYS } from './operator-profile';
import { SUBMIT_BOX_SETTING_KEY } from '@shared/contract/submit-box';
import { ROOM_CREATION_POLICIES, ROOM_SETTING_KEYS, TRASH_RETENTION_DAYS_DEFAULT, TRASH_RETENTION_DAYS_RANGE } from '@shared/contract/room-admin';
import { FORM_EMBED_SETTING_KEYS, originListProblem } from '@shared/contract/form-embed';
import { TERMS_SETTING_KEYS, TERMS_VERSION_RANGE } from '@shared/contract/terms';
import { ROOM_INVITATION_VALID_DAYS_DEFAULT, ROOM_INVITATION_VALID_DAYS_KEY, ROOM_INVITATION_VALID_DAYS_RANGE } from '@shared/contract/room-invitations';
import { ROOM_RETENTION_MIN_DAYS_DEFAULT, ROOM_RETENTION_MIN_DAYS_KEY, ROOM_RETENTION_MIN_DAYS_RANGE } from '@shared/contract/room-retention';

/** Default theme colours (SPEC §9). */
export const DEFAULT_THEME_COLOR = '#19853F';
export const DEFAULT_THEME_HOVER_COLOR = '#0B7530';

/** Delivery cleanup bounds: at least a day so a recipient has a chance, at most a year. */
const CLEANUP_MIN_MS = 1 * MS_PER_DAY;
const CLEANUP_MAX_MS = 365 * MS_PER_DAY;

/**
 * Files refused by default (FileNotAllowedException): programs and scripts Windows runs
 * on a double click, the usual carriers of mail-borne malware. Admins change the lists.
 */
export const DEFAULT_BLOCKED_EXTENSIONS = 'exe,bat,cmd,com,scr,pif,js,jse,vbs,vbe,wsf,wsh,msi,msc,ps1,hta,cpl,jar,lnk,reg';
export const DEFAULT_BLOCKED_MIME_TYPES =
  'application/x-msdownload,application/x-msdos-program,application/x-dosexec,application/x-msi,application/x-ms-installer,application/hta,application/x-ms-shortcut';
/** Attachments of one delivery per account: 10 GiB covers video and disk images, not a whole backup. */
const MAX_UPLOAD_SIZE_BYTES = 10 * 1024 ** 3;

/** Password policy default: 10 characters with upper, lower case and a digit. */
const PASSWORD_MIN_LENGTH = 10;

/** SecuPass policy defaults: 12 characters with lower, upper case and a digit, zxcvbn score 3. */
const SECUPASS_MIN_LENGTH = 12;
const SECUPASS_MIN_STRENGTH = 3;
/** Bounds an administrator may choose (a passphrase longer than 256 characters is nobody's). */
const SECUPASS_MIN_LENGTH_RANGE = [1, 256] as const;
const SECUPASS_MIN_STRENGTH_RANGE = [0, 4] as const;

const perLanguage = (key: string, value: ConfigValue): Record<string, ConfigValue> =>
  Object.fromEntries(LANGUAGES.map((lang) => [`${key}.${lang}`, value]));

/** The configuration profile of SPEC §3 (public, GET /config/profile) with its defaults. */
export const PROFILE_DEFAULTS: Readonly<Record<string, ConfigValue>> = {
  [CONFIG_KEYS.wizardFinished]: false,
  [CONFIG_KEYS.webUiTitle]: 'Kuvert',
  [CONFIG_KEYS.maintenanceActivated]: false,
  ...perLanguage(CONFIG_KEYS.maintenanceTitle, ''),
  ...perLanguage(CONFIG_KEYS.maintenanceContent, ''),
  [CONFIG_KEYS.maintenanceBackgroundColor]: '#FFF4CE',
  [CONFIG_KEYS.maintenanceTextColor]: '#242424',
  [CONFIG_KEYS.maintenanceButtonColor]: DEFAULT_THEME_COLOR,
  [CONFIG_KEYS.maintenanceStartDate]: null,
  [CONFIG_KEYS.maintenanceExpirationDate]: null,
  [CONFIG_KEYS.productHelpWorkspaceCode]: null,
  [CONFIG_KEYS.productHelpEndpoint]: null,
  [CONFIG_KEYS.analyticsEnabled]: false,
  [CONFIG_KEYS.analyticsApiKey]: null,
  [CONFIG_KEYS.analyticsUrl]: null,
  [CONFIG_KEYS.customerId]: null,
  [CONFIG_KEYS.themeColor]: DEFAULT_THEME_COLOR,
  [CONFIG_KEYS.themeHoverColor]: DEFAULT_THEME_HOVER_COLOR,
  [CONFIG_KEYS.tableRowColor]: '#F5F5F5',
  [CONFIG_KEYS.tableRowHoverColor]: '#E6F2EA',
};

/** Settings that are not public (admin only) with their defaults. */
export const PRIVATE_DEFAULTS: Readonly<Record<string, ConfigValue>> = {
  [SETTING_KEYS.organisationName]: 'Kuvert',
  [SETTING_KEYS.loginDisclaimerEnabled]: false,
  ...perLanguage(SETTING_KEYS.loginDisclaimerText, ''),
  [SETTING_KEYS.totpRequired]: false,
  [SETTING_KEYS.passwordMinLength]: PASSWORD_MIN_LENGTH,
  [SETTING_KEYS.passwordRequireUppercase]: true,
  [SETTING_KEYS.passwordRequireLowercase]: true,
  [SETTING_KEYS.passwordRequireDigit]: true,
  [SETTING_KEYS.passwordRequireSpecial]: false,
  [SETTING_KEYS.mailTransport]: 'mailbox',
  [SETTING_KEYS.mailSmtpUrl]: null,
  [SETTING_KEYS.mailFrom]: null,
  [SETTING_KEYS.allowSecurityLevel1]: true,
  [SETTING_KEYS.allowSecurityLevel2]: true,
  [SETTING_KEYS.allowSecurityLevel3]: true,
  [SETTING_KEYS.allowSecurityLevel4]: true,
  [SETTING_KEYS.deliveryCleanupEnabled]: true,
  [SETTING_KEYS.deliveryCleanupCustomExpiration]: true,
  [SETTING_KEYS.deliveryCleanupExpirationMin]: CLEANUP_MIN_MS,
  [SETTING_KEYS.deliveryCleanupExpirationMax]: CLEANUP_MAX_MS,
  [SETTING_KEYS.secupassMinLength]: SECUPASS_MIN_LENGTH,
  [SETTING_KEYS.secupassRequireLowercase]: true,
  [SETTING_KEYS.secupassRequireUppercase]: true,
  [SETTING_KEYS.secupassRequireDigit]: true,
  [SETTING_KEYS.secupassRequireSpecial]: false,
  [SETTING_KEYS.secupassMinStrength]: SECUPASS_MIN_STRENGTH,
  [DELIVERY_SETTING_KEYS.blockedExtensions]: DEFAULT_BLOCKED_EXTENSIONS,
  [DELIVERY_SETTING_KEYS.blockedMimeTypes]: DEFAULT_BLOCKED_MIME_TYPES,
  [DELIVERY_SETTING_KEYS.maxUploadSize]: MAX_UPLOAD_SIZE_BYTES,
  // 0: limited by the blob store's free space only.
  [DELIVERY_SETTING_KEYS.globalQuota]: 0,
  // Issue 32: each user's storage quota unless their own is set (uploads/quotas.ts); 0: none.
  [USER_QUOTA_SETTING_KEY]: 0,
  [DELIVERY_SETTING_KEYS.bannedRecipients]: '',
  [DELIVERY_SETTING_KEYS.inviteRequiresRole]: false,
  [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: false,
  ...perLanguage(EXTERNAL_SETTING_KEYS.downloadDisclaimerText, ''),
  [EXTERNAL_SETTING_KEYS.signupRequiresSms]: false,
  // Self-registration (issue 17 §1): off until an administrator turns it on.
  [SIGNUP_SETTING_KEY]: false,
  // Submit boxes (issue 16 §1): on; an administrator switches every box off here.
  [SUBMIT_BOX_SETTING_KEY]: true,
  // Secure rooms › General (issue 15, shared/contract/room-admin.ts).
  [ROOM_SETTING_KEYS.creation]: 'licenceOrPermission',
  [ROOM_SETTING_KEYS.e2eAllowed]: true,
  [ROOM_SETTING_KEYS.trashRetentionDays]: TRASH_RETENTION_DAYS_DEFAULT,
  // Form embedding (issue 16 §2): no other site may frame or call the public form until listed.
  [FORM_EMBED_SETTING_KEYS.frameAncestors]: '',
  [FORM_EMBED_SETTING_KEYS.corsOrigins]: '',
  // Days a data-room invitation link stays valid (issue 15, rooms/sharing/invitations.ts).
  [ROOM_INVITATION_VALID_DAYS_KEY]: ROOM_INVITATION_VALID_DAYS_DEFAULT,
  // Terms of use (issue 34): nobody is asked until an administrator numbers a version.
  [TERMS_SETTING_KEYS.version]: 0,
  ...perLanguage(TERMS_SETTING_KEYS.text, ''),
  // The smallest retention period an OWNER may set for a room (issue 31 §2, rooms/plain/retention.ts).
  [ROOM_RETENTION_MIN_DAYS_KEY]: ROOM_RETENTION_MIN_DAYS_DEFAULT,
};

/** Integer settings with a closed range. */
const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  [SETTING_KEYS.secupassMinLength]: SECUPASS_MIN_LENGTH_RANGE,
  [SETTING_KEYS.secupassMinStrength]: SECUPASS_MIN_STRENGTH_RANGE,
  [ROOM_SETTING_KEYS.trashRetentionDays]: TRASH_RETENTION_DAYS_RANGE,
  [ROOM_INVITATION_VALID_DAYS_KEY]: ROOM_INVITATION_VALID_DAYS_RANGE,
  [TERMS_SETTING_KEYS.version]: TERMS_VERSION_RANGE,
  [ROOM_RETENTION_MIN_DAYS_KEY]: ROOM_RETENTION_MIN_DAYS_RANGE,
};

export const ALL_DEFAULTS: Readonly<Record<string, ConfigValue>> = { ...PROFILE_DEFAULTS, ...PRIVATE_DEFAULTS };

/** Keys whose value may be null besides their default's type (dates, optional strings). */
const NULLABLE_STRING_KEYS = new Set(
  Object.entries(ALL_DEFAULTS)
    .filter(([, v]) => v === null)
    .map(([k]) => k),
);

/** Why a value does not fit a setting, or null when it does. */
/** Settings holding a colour: `#RRGGBB` only. */
const HEX_COLOUR_KEYS: ReadonlySet<string> = new Set([
  CONFIG_KEYS.themeColor,
  CONFIG_KEYS.themeHoverColor,
  CONFIG_KEYS.tableRowColor,
  CONFIG_KEYS.tableRowHoverColor,
  CONFIG_KEYS.maintenanceBackgroundColor,
  CONFIG_KEYS.maintenanceTextColor,
  CONFIG_KEYS.maintenanceButtonColor,
]);

export function settingValueProblem(key: string, value: ConfigValue): string | null {
  if (!(key in ALL_DEFAULTS)) return 'unknown setting';
  if (OPERATOR_PROFILE_KEYS.has(key)) return 'set by the server operator in the environment (product help, analytics), not here';
  const fallback = ALL_DEFAULTS[key];
  if (NULLABLE_STRING_KEYS.has(key)) return value === null || typeof value === 'string' ? null : 'must be a string or null';
  if (value === null) return 'must not be null';
  if (typeof value !== typeof fallback) return `must be a ${typeof fallback}`;
  if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) return 'must be a non-negative number';
  const range = INTEGER_RANGES[key];
  if (range && (!Number.isInteger(value) || (value as number) < range[0] || (value as number) > range[1])) {
    return `must be an integer from ${range[0]} to ${range[1]}`;
  }
  // SPEC §5 "must be a valid hex colour": the theme's and the maintenance notice's colours (the notice's
  // are put into the page's style as they are stored).
  if (HEX_COLOUR_KEYS.has(key) && !/^#[0-9a-fA-F]{6}$/.test(String(value))) return 'must be a hex colour like #19853F';
  if (key === SETTING_KEYS.mailTransport && value !== 'mailbox' && value !== 'smtp') return "must be 'mailbox' or 'smtp'";
  if (key === ROOM_SETTING_KEYS.creation && !(ROOM_CREATION_POLICIES as readonly string[]).includes(String(value))) return `must be one of ${ROOM_CREATION_POLICIES.join(', ')}`;
  if (key === DELIVERY_SETTING_KEYS.blockedMimeTypes) {
    // Comma-separated `type/subtype` or `type/*` (the family); no parameters, no control characters.
    const entries = String(value).split(',').map((v) => v.trim()).filter((v) => v !== '');
    const bad = entries.filter((v) => v.includes(';') || !isValidMimeType(v.replace(/\/\*$/, '/x')));
    if (bad.length > 0) return `must be MIME types as type/subtype or type/* separated by commas (not: ${bad.join(', ')})`;
  }
  if (key === FORM_EMBED_SETTING_KEYS.frameAncestors) return originListProblem(value, true);
  if (key === FORM_EMBED_SETTING_KEYS.corsOrigins) return originListProblem(value, false);
  return null;
}

/** The languages in which a per-language text setting (`key.de|.en|.fr`) is not blank. */
function filledLanguages(all: Readonly<Record<string, ConfigValue>>, key: string): Language[] {
  return LANGUAGES.filter((language) => String(all[`${key}.${language}`] ?? '').trim() !== '');
}
const disclaimerTexts = (all: Readonly<Record<string, ConfigValue>>) => filledLanguages(all, EXTERNAL_SETTING_KEYS.downloadDisclaimerText);

/**
 * A per-language text setting in the reader's language; a language left empty falls back to
 * English, then to the first language that has a text; '' when none has.
 */
export function textInLanguage(all: Readonly<Record<string, ConfigValue>>, key: string, language: Language): string {
  const filled = filledLanguages(all, key);
  const chosen = filled.includes(language) ? language : filled.includes(FALLBACK_LANGUAGE) ? FALLBACK_LANGUAGE : filled[0];
  return chosen === undefined ? '' : String(all[`${key}.${chosen}`]);
}

/** The download disclaimer in the recipient's language (the setting cannot be on with all texts empty). */
export const downloadDisclaimerText = (all: Readonly<Record<string, ConfigValue>>, language: Language): string =>
  textInLanguage(all, EXTERNAL_SETTING_KEYS.downloadDisclaimerText, language);

/**
 * Problems of settings that only show together (after an update is merged into the current
 * values): each names the key the administrator has to change. Checked by PUT /admin/settings
 * so the send form's validity bounds can never be empty. "No level allowed" stays possible: the
 * send page answers it with its own message (an administrator may close sending on purpose).
 */
export function settingsConsistencyProblems(merged: Readonly<Record<string, ConfigValue>>): { key: string; problem: string }[] {
  const problems: { key: string; problem: string }[] = [];
  const min = Number(merged[SETTING_KEYS.deliveryCleanupExpirationMin]);
  const max = Number(merged[SETTING_KEYS.deliveryCleanupExpirationMax]);
  if (min > max) problems.push({ key: SETTING_KEYS.deliveryCleanupExpirationMax, problem: 'must not be shorter than the minimum validity' });
  // A download disclaimer without any text would ask recipients to accept an empty page.
  if (merged[EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled] === true && disclaimerTexts(merged).length === 0) {
    problems.push({ key: EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled, problem: 'needs the disclaimer text in at least one language' });
  }
  return problems;
}
