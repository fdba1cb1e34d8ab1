import type { BasicCredentials } from '@shared/api/client';
import { postTotpRegistration } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export const fetchTotpRegistration = (credentials: BasicCredentials) => postTotpRegistration(apiClient, credentials);

/** POST /auth/totp/registration once per screen visit (it stores a pending secret). */
export const useTotpRegistration = (credentials: BasicCredentials | null) =>
  useSWR(credentials ? ['auth/totp/registration', credentials.username] : null, () => fetchTotpRegistration(credentials as BasicCredentials), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
