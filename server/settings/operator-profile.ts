import { CONFIG_KEYS, type ConfigValue } from '@shared/contract/config';
import type { KuvertConfig } from '../config';
import type { ThirdPartyOrigins } from '../core/security-headers';

/**
 * Profile keys an operator sets in the environment, not an administrator in the web client
 * (issue 17 §4): the product-help widget and the analytics SDK load from or send to third-party
 * hosts, and the Content-Security-Policy admits exactly those origins at start.
 */
export const OPERATOR_PROFILE_KEYS: ReadonlySet<string> = new Set([
  CONFIG_KEYS.productHelpEndpoint,
  CONFIG_KEYS.productHelpWorkspaceCode,
  CONFIG_KEYS.analyticsEnabled,
  CONFIG_KEYS.analyticsApiKey,
  CONFIG_KEYS.analyticsUrl,
  CONFIG_KEYS.customerId,
]);

type OperatorConfig = Pick<KuvertConfig, 'productHelpEndpoint' | 'productHelpWorkspaceCode' | 'analyticsEnabled' | 'analyticsApiKey' | 'analyticsUrl' | 'customerId'>;

/** The operator's part of GET /config/profile (SPEC §3); unset values are null, analytics false. */
export function operatorProfile(config: OperatorConfig): Record<string, ConfigValue> {
  return {
    [CONFIG_KEYS.productHelpEndpoint]: config.productHelpEndpoint ?? null,
    [CONFIG_KEYS.productHelpWorkspaceCode]: config.productHelpWorkspaceCode ?? null,
    [CONFIG_KEYS.analyticsEnabled]: config.analyticsEnabled,
    [CONFIG_KEYS.analyticsApiKey]: config.analyticsEnabled ? (config.analyticsApiKey ?? null) : null,
    [CONFIG_KEYS.analyticsUrl]: config.analyticsEnabled ? (config.analyticsUrl ?? null) : null,
    [CONFIG_KEYS.customerId]: config.customerId ?? null,
  };
}


export function thirdPartyOrigins(config: OperatorConfig): ThirdPartyOrigins {
  return {
    productHelp: config.productHelpEndpoint ? new URL(config.productHelpEndpoint).origin : null,
    analytics: config.analyticsEnabled && config.analyticsUrl ? new URL(config.analyticsUrl).origin : null,
  };
}
