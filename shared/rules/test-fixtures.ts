import type { DeliverySendConfig } from '../contract/config';
import { MS_PER_DAY } from '../contract/constants';

/**
 * The one send-config test fixture (tests only): the server's defaults — levels 1–4 allowed, a
 * custom validity between 1 and 365 days, no SMS at signup — with a test's own changes on top.
 * Written out literally, so a test comparing the server's answer with it still checks the defaults.
 */
export function sendConfigFixture(overrides: Partial<DeliverySendConfig> = {}): DeliverySendConfig {
  return {
    allowSecurityLevel1: true,
    allowSecurityLevel2: true,
    allowSecurityLevel3: true,
    allowSecurityLevel4: true,
    deliveryCleanupEnabled: true,
    deliveryCleanupCustomExpiration: true,
    deliveryCleanupExpirationMin: 1 * MS_PER_DAY,
    deliveryCleanupExpirationMax: 365 * MS_PER_DAY,
    signupRequiresSms: false,
    ...overrides,
  };
}
