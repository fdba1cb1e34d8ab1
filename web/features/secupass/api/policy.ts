import { getSecuPassPolicy } from '@shared/api/endpoints/secupass';
import type { SecuPassPolicy } from '@shared/contract/secupass';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /secupass/policy (public). */
export const fetchSecuPassPolicy = (): Promise<SecuPassPolicy> => getSecuPassPolicy(apiClient);

/** The policy; `error` set when it could not be fetched (the form then refuses to submit, SPEC §8). */
export const useSecuPassPolicy = () => useSWR('secupass/policy', fetchSecuPassPolicy, { revalidateOnFocus: false, shouldRetryOnError: false });
