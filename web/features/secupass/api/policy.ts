import { SECUPASS_PATHS, type SecuPassPolicy } from '@shared/contract/secupass';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /secupass/policy (public). */
export const fetchSecuPassPolicy = () => apiClient.get<SecuPassPolicy>(SECUPASS_PATHS.policy);

/** The policy; `error` set when it could not be fetched (the form then refuses to submit, SPEC §8). */
export const useSecuPassPolicy = () => useSWR('secupass/policy', fetchSecuPassPolicy, { revalidateOnFocus: false, shouldRetryOnError: false });
