import type { Endpoint } from '../endpoint';
import { ACCOUNT_ENDPOINTS } from './account';
import { ADMIN_ENDPOINTS } from './admin';

/** Every area of the catalogue (one file each, README.md "Endpoint catalogue"). */
export const ENDPOINT_AREAS = {
  account: ACCOUNT_ENDPOINTS,
  admin: ADMIN_ENDPOINTS,
} as const;

/** Every endpoint of `/api/2`, once. */
export const ENDPOINTS: readonly Endpoint[] = Object.values(ENDPOINT_AREAS).flatMap((area) => Object.values(area) as Endpoint[]);
