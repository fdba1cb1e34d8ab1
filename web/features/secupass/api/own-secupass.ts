import { getOwnSecuPass, postSecuPass, putSecuPass } from '@shared/api/endpoints/secupass';
import type { OwnSecuPassResponse, SetSecuPassBody } from '@shared/contract/secupass';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';

export const OWN_SECUPASS_KEY = 'user/secupass';

/** GET /user/secupass: own state, public keys and wrapped blob. */
export const fetchOwnSecuPass = (): Promise<OwnSecuPassResponse> => getOwnSecuPass(apiClient);

/** POST /user/secupass: first set (409 ConflictException while one is active). */
export const createOwnSecuPass = (body: SetSecuPassBody) => postSecuPass(apiClient, body);

/** PUT /user/secupass: replace the blob (change, v2 → v3 upgrade); the public keys stay the same. */
export const replaceOwnSecuPass = (body: SetSecuPassBody) => putSecuPass(apiClient, body);

/** Keyed by the signed-in user, so another sign-in in the same tab never sees the previous user's blob. */
export const useOwnSecuPass = () => {
  const { user } = useAuthState();
  return useSWR(user ? [OWN_SECUPASS_KEY, user.uuid] : null, fetchOwnSecuPass, { revalidateOnFocus: false });
};

/** Marks the cached own state stale after a set/change/upgrade. */
export const revalidateOwnSecuPass = () => mutate((key) => Array.isArray(key) && key[0] === OWN_SECUPASS_KEY);
