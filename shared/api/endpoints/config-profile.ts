import type { ConfigProfileResponse, ConfigValue } from '@shared/contract/config';
import type { ApiClient } from '../client';

export type ConfigProfile = Record<string, ConfigValue>;

/** GET /config/profile (public): the ftapi.* configuration map (SPEC §3, §7). */
export async function getConfigProfile(client: ApiClient): Promise<ConfigProfile> {
  const response = await client.get<ConfigProfileResponse>('/config/profile');
  return response.config;
}
