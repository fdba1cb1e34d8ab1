import { getCaptcha } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export const fetchCaptcha = () => getCaptcha(apiClient);

/** GET /auth/captcha — single use, so never revalidated behind the user's back; `mutate()` reloads. */
export const useCaptcha = () =>
  useSWR('auth/captcha', fetchCaptcha, { revalidateOnFocus: false, revalidateIfStale: false, revalidateOnReconnect: false, dedupingInterval: 0 });
