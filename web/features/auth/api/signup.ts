import { SIGNUP_PATH, type SignupBody, type SignupInfo } from '@shared/contract/signup';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /auth/signup: the sign-up link and page exist only while self-registration is enabled. */
export const useSignupInfo = () =>
  useSWR('auth/signup', () => apiClient.get<SignupInfo>(SIGNUP_PATH), { revalidateOnFocus: false, shouldRetryOnError: false });

/** POST /auth/signup (202 whether or not the address was free). */
export const signUp = async (body: SignupBody): Promise<void> => {
  await apiClient.post(SIGNUP_PATH, body);
};
