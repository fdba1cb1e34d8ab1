import { SECUPASS_PATHS } from '@shared/contract/secupass';
import { apiClient } from '@web/lib/api-client';

/**
 * POST /admin/users/{uuid}/secupass/reset (ROLE_ADMIN, ROLE_USER_ADMIN): invalidates the user's
 * blob and every access copy; the user is told by mail (204).
 */
export const resetUserSecuPass = async (userUuid: string): Promise<void> => {
  await apiClient.post(SECUPASS_PATHS.adminReset(userUuid));
};
