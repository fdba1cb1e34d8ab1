import { getPasswordPolicy } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export const fetchPasswordPolicy = () => getPasswordPolicy(apiClient);

/** GET /auth/password-policy, for checking a new password before it is sent. */
export const usePasswordPolicy = () => useSWR('auth/password-policy', fetchPasswordPolicy, { revalidateOnFocus: false });
