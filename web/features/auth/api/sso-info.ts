import { getSsoInfo } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export const fetchSsoInfo = () => getSsoInfo(apiClient);

/** GET /auth/sso — the SSO button shows only when this says enabled. */
export const useSsoInfo = () => useSWR('auth/sso', fetchSsoInfo, { revalidateOnFocus: false, shouldRetryOnError: false });
