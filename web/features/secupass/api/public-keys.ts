import { getUserPublicKeys } from '@shared/api/endpoints/secupass';
import type { UserPublicKeysResponse } from '@shared/contract/secupass';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /users/{uuid}/public-keys: another user's public keys (`keys` empty without SecuPass). */
export const fetchUserPublicKeys = (userUuid: string): Promise<UserPublicKeysResponse> => getUserPublicKeys(apiClient, userUuid);

/** The server's fingerprint is for display only: recompute it with cryptoApi.fingerprint before trusting a key. */
export const useUserPublicKeys = (userUuid: string | null) =>
  useSWR(userUuid ? ['users/public-keys', userUuid] : null, ([, uuid]) => fetchUserPublicKeys(uuid), { revalidateOnFocus: false });
