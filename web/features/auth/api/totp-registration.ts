import type { BasicCredentials } from '@shared/api/client';
import { postTotpRegistration } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

type CaptchaAnswer = { j_captcha: string; j_captcha_id: string } | null;

export const fetchTotpRegistration = (credentials: BasicCredentials, captcha: CaptchaAnswer) => postTotpRegistration(apiClient, credentials, captcha);

/** POST /auth/totp/registration once per screen visit (it stores a pending secret); a captcha answer makes a new call. */
export const useTotpRegistration = (credentials: BasicCredentials | null, captcha: CaptchaAnswer = null) =>
  useSWR(credentials ? ['auth/totp/registration', credentials.username, captcha?.j_captcha_id ?? ''] : null, () => fetchTotpRegistration(credentials as BasicCredentials, captcha), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
