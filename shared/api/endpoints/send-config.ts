import type { DeliverySendConfig } from '@shared/contract/config';
import type { ApiClient } from '../client';

/** GET /delivery/send/config (signed in). Fetched once and cached by the caller (SPEC §7). */
export async function getSendConfig(client: ApiClient): Promise<DeliverySendConfig> {
  return client.get<DeliverySendConfig>('/delivery/send/config');
}
