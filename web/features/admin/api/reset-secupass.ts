import { postAdminSecuPassReset } from '@shared/api/endpoints/secupass';
import { apiClient } from '@web/lib/api-client';

/**
 * POST /admin/users/{uuid}/secupass/reset (ROLE_ADMIN, ROLE_USER_ADMIN): invalidates the user's
 * blob and every access copy; the user is told by mail (204).
 */
export const resetUserSecuPass = (userUuid: string): Promise<void> => postAdminSecuPassReset(apiClient, userUuid);
