import { getLoginDisclaimer } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export const fetchLoginDisclaimer = (language: string) => getLoginDisclaimer(apiClient, language);

/** GET /auth/disclaimer?lang= */
export const useLoginDisclaimer = (language: string) =>
  useSWR(['auth/disclaimer', language], ([, lang]) => fetchLoginDisclaimer(lang), { revalidateOnFocus: false });
