import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import type { ConfigValue } from '@shared/contract/config';
import { call } from '../call';
import type { ApiClient } from '../client';

export type ConfigProfile = Record<string, ConfigValue>;

/** GET /config/profile (public): the ftapi.* configuration map (SPEC §3, §7). */
export async function getConfigProfile(client: ApiClient): Promise<ConfigProfile> {
  const response = await call(client, ACCOUNT_ENDPOINTS.configProfile, {});
  return response.config;
}
