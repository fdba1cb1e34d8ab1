import { call } from '@shared/api/call';
import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import type { SignupBody } from '@shared/contract/signup';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /auth/signup: the sign-up link and page exist only while self-registration is enabled. */
export const useSignupInfo = () =>
  useSWR('auth/signup', () => call(apiClient, ACCOUNT_ENDPOINTS.signupInfo, {}), { revalidateOnFocus: false, shouldRetryOnError: false });

/** POST /auth/signup (202 whether or not the address was free). */
export const signUp = async (body: SignupBody): Promise<void> => {
  await call(apiClient, ACCOUNT_ENDPOINTS.signUp, { body });
};
