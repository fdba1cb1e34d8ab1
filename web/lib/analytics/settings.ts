import type { Types } from '@amplitude/analytics-browser';
import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import { CONFIG_KEYS } from '@shared/contract/config';
import type { RoleName } from '@shared/contract/constants';
import { utf8Encode } from '@shared/crypto/bytes';
import { sha256Hex } from '@shared/crypto/subtle';

/**
 * What the configuration profile (SPEC §3) says about the product-help widget and analytics,
 * the user's identity both are given, and the analytics SDK's options (SPEC §9). Pure, so the
 * mapping is unit-tested; the loaders live in analytics.ts and features/help.
 */

export interface ProductHelpSettings {
  /** The widget's script URL (http/https only). */
  endpoint: string;
  workspaceCode: string;
}

export interface AnalyticsSettings {
  apiKey: string;
  serverUrl: string;
  /** `ftapi.customerId`: the `customer_id` group; null = no group. */
  customerId: string | null;
}

const text = (config: ConfigProfile, key: string): string => {
  const value = config[key];
  return typeof value === 'string' ? value.trim() : '';
};

const isHttpUrl = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The widget when an endpoint is configured (and is an http(s) URL), else null: Help opens the bundled page. */
export function productHelpSettings(config: ConfigProfile): ProductHelpSettings | null {
  const endpoint = text(config, CONFIG_KEYS.productHelpEndpoint);
  if (!endpoint || !isHttpUrl(endpoint)) return null;
  return { endpoint, workspaceCode: text(config, CONFIG_KEYS.productHelpWorkspaceCode) };
}

/** Analytics only when enabled with a key and an http(s) server URL; anything else is off. */
export function analyticsSettings(config: ConfigProfile): AnalyticsSettings | null {
  const enabled = config[CONFIG_KEYS.analyticsEnabled];
  if (enabled !== true && enabled !== 'true') return null;
  const apiKey = text(config, CONFIG_KEYS.analyticsApiKey);
  const serverUrl = text(config, CONFIG_KEYS.analyticsUrl);
  if (!apiKey || !isHttpUrl(serverUrl)) return null;
  return { apiKey, serverUrl, customerId: text(config, CONFIG_KEYS.customerId) || null };
}

/** Help-centre access tags (SPEC §6), in this order. */
const ACCESS_TAGS: readonly (readonly [RoleName, string])[] = [
  ['ROLE_SECUFORMS', 'secuforms'],
  ['ROLE_SUBMITBOX_OWNER', 'submitbox'],
  ['ROLE_SECUROOMS_USER', 'securooms'],
  ['ROLE_OUTLOOK', 'outlook'],
  ['config.group.reporting', 'reporting'],
  ['ROLE_USER_ADMIN', 'user-admin'],
  ['ROLE_ADMIN', 'sys-admin'],
];

export function helpAccessTags(roleNames: readonly string[]): string[] {
  return ACCESS_TAGS.filter(([role]) => roleNames.includes(role)).map(([, tag]) => tag);
}

/**
 * The user as third parties see them: SHA-256 (hex) of the user's uuid, so neither the widget's
 * host nor the analytics host learns who it is, and the same user gets the same id in both.
 */
export async function hashedUserId(userUuid: string): Promise<string> {
  return sha256Hex(utf8Encode(userUuid));
}

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/** SPEC §9's analytics constants as the SDK's options. */
export const ANALYTICS_CONSTANTS = {
  flushIntervalMillis: SECOND_MS,
  flushMaxRetries: 5,
  flushQueueSize: 30,
  sessionTimeout: 30 * MINUTE_MS,
  cookieExpirationDays: 365,
  trackingPlanVersion: '133',
} as const;

/**
 * The SDK's options (`init(apiKey, userId, options)`): EU zone, the configured server URL, SPEC §9's
 * figures, the cookie on the current host (SameSite Lax). Sessions, form interactions and every
 * other automatic capture are off (SPEC §7; page views are sent by analytics.ts with the route
 * pattern instead of the address, which may hold a download token); no remote configuration or
 * diagnostics calls to hosts the operator did not name; no IP address.
 */
export function amplitudeOptions(settings: AnalyticsSettings, host: string): Types.BrowserOptions {
  return {
    serverZone: 'EU',
    serverUrl: settings.serverUrl,
    flushIntervalMillis: ANALYTICS_CONSTANTS.flushIntervalMillis,
    flushMaxRetries: ANALYTICS_CONSTANTS.flushMaxRetries,
    flushQueueSize: ANALYTICS_CONSTANTS.flushQueueSize,
    sessionTimeout: ANALYTICS_CONSTANTS.sessionTimeout,
    cookieOptions: { domain: host, expiration: ANALYTICS_CONSTANTS.cookieExpirationDays, sameSite: 'Lax' },
    plan: { version: ANALYTICS_CONSTANTS.trackingPlanVersion },
    autocapture: false,
    fetchRemoteConfig: false,
    remoteConfig: { fetchRemoteConfig: false },
    enableDiagnostics: false,
    trackingOptions: { ipAddress: false },
    transport: 'fetch',
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The page a page view names: the path only, ids replaced (no query, no fragment, no locale-free guesswork). */
export function pageOf(pathname: string): string {
  return pathname.replace(UUID, ':id');
}
