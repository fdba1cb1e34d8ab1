import { call } from '@shared/api/call';
import type { AdminUser, BannedRecipients, CreateUserBody, CreateUserResponse, UpdateUserBody } from '@shared/contract/admin-users';
import { ADMIN_ENDPOINTS } from '@shared/contract/endpoints/admin';
import { AUTH_ESCALATION_ENDPOINTS } from '@shared/contract/endpoints/auth-escalation';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** The user administration calls (shared/contract/endpoints/admin.ts), ROLE_ADMIN or ROLE_USER_ADMIN. */

/** POST /admin/users without a password: the user gets an invitation mail. */
export const createUser = (body: Omit<CreateUserBody, 'password'>): Promise<CreateUserResponse> => call(apiClient, ADMIN_ENDPOINTS.createUser, { body });

export const updateUser = (userUuid: string, body: UpdateUserBody): Promise<AdminUser> => call(apiClient, ADMIN_ENDPOINTS.updateUser, { params: { userUuid }, body });

export const setUserDisabled = (userUuid: string, disabled: boolean): Promise<AdminUser> =>
  call(apiClient, disabled ? ADMIN_ENDPOINTS.disableUser : ADMIN_ENDPOINTS.enableUser, { params: { userUuid } });

export const deleteUser = async (userUuid: string): Promise<void> => {
  await call(apiClient, ADMIN_ENDPOINTS.deleteUser, { params: { userUuid } });
};

export const resendInvitation = async (userUuid: string): Promise<void> => {
  await call(apiClient, ADMIN_ENDPOINTS.resendInvitation, { params: { userUuid } });
};

/** POST /admin/users/{uuid}/totp/reset: removes the user's authentication app (lost phone). */
export const resetUserTotp = async (userUuid: string): Promise<void> => {
  await call(apiClient, AUTH_ESCALATION_ENDPOINTS.adminTotpReset, { params: { userUuid } });
};

const BANNED_KEY = 'admin/banned-recipients';

export const useBannedRecipients = () => useSWR(BANNED_KEY, () => call(apiClient, ADMIN_ENDPOINTS.bannedRecipients, {}), { revalidateOnFocus: false });

export const banRecipient = (entry: string): Promise<BannedRecipients> => call(apiClient, ADMIN_ENDPOINTS.banRecipient, { body: { entry } });

export const liftBan = (entry: string): Promise<BannedRecipients> => call(apiClient, ADMIN_ENDPOINTS.unbanRecipient, { params: { entry } });
