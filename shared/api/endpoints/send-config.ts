import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import type { DeliverySendConfig } from '@shared/contract/config';
import { call } from '../call';
import type { ApiClient } from '../client';

/** GET /delivery/send/config (signed in). Fetched once and cached by the caller (SPEC §7). */
export async function getSendConfig(client: ApiClient): Promise<DeliverySendConfig> {
  return call(client, ACCOUNT_ENDPOINTS.sendConfig, {});
}
