import { getSendConfig } from '@shared/api/endpoints/send-config';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

export const SEND_CONFIG_KEY = 'delivery/send/config';

/** GET /delivery/send/config, once per signed-in user (SPEC §7: fetched once and cached). */
export const useSendConfig = () => {
  const { user } = useAuthState();
  return useSWR(user ? [SEND_CONFIG_KEY, user.uuid] : null, () => getSendConfig(apiClient), { revalidateOnFocus: false, revalidateIfStale: false });
};
