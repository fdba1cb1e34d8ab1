import {
  ADMIN_USERS_PATHS,
  adminUsersPath,
  type AdminUser,
  type BannedRecipients,
  type CreateUserBody,
  type CreateUserResponse,
  type UpdateUserBody,
} from '@shared/contract/admin-users';
import { AUTH_ESCALATION_PATHS } from '@shared/contract/auth-escalation';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** The user administration calls (shared/contract/admin-users.ts), ROLE_ADMIN or ROLE_USER_ADMIN. */
const userPath = (path: string, userUuid: string) => adminUsersPath(path, { userUuid });

/** POST /admin/users without a password: the user gets an invitation mail. */
export const createUser = (body: Omit<CreateUserBody, 'password'>) => apiClient.post<CreateUserResponse>(ADMIN_USERS_PATHS.create, body);

export const updateUser = async (userUuid: string, body: UpdateUserBody) =>
  (await apiClient.request<AdminUser>('PATCH', userPath(ADMIN_USERS_PATHS.one, userUuid), { body })).data;

export const setUserDisabled = (userUuid: string, disabled: boolean) =>
  apiClient.post<AdminUser>(userPath(disabled ? ADMIN_USERS_PATHS.disable : ADMIN_USERS_PATHS.enable, userUuid));

export const deleteUser = async (userUuid: string): Promise<void> => {
  await apiClient.request('DELETE', userPath(ADMIN_USERS_PATHS.one, userUuid));
};

export const resendInvitation = async (userUuid: string): Promise<void> => {
  await apiClient.post(userPath(ADMIN_USERS_PATHS.invitation, userUuid));
};

/** POST /admin/users/{uuid}/totp/reset: removes the user's authentication app (lost phone). */
export const resetUserTotp = async (userUuid: string): Promise<void> => {
  await apiClient.post(userPath(AUTH_ESCALATION_PATHS.adminTotpReset, userUuid));
};

const BANNED_KEY = 'admin/banned-recipients';

export const useBannedRecipients = () => useSWR(BANNED_KEY, () => apiClient.get<BannedRecipients>(ADMIN_USERS_PATHS.bannedRecipients), { revalidateOnFocus: false });

export const banRecipient = (entry: string) => apiClient.post<BannedRecipients>(ADMIN_USERS_PATHS.bannedRecipients, { entry });

export const liftBan = async (entry: string) =>
  (await apiClient.request<BannedRecipients>('DELETE', adminUsersPath(ADMIN_USERS_PATHS.bannedRecipient, { entry }))).data;
