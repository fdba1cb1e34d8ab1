import type { AdminUser } from '@shared/contract/admin-users';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { SENDER_GROUP_PATHS, type SenderGroup, type SenderGroupList, type UpdateSenderGroupBody, type UpdateUserSenderBody } from '@shared/contract/sender-groups';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** Sender groups and per-user sender settings (shared/contract/sender-groups.ts), ROLE_ADMIN. */
export const useSenderGroups = (enabled: boolean) =>
  useSWR(enabled ? 'admin/sender-groups' : null, () => apiClient.get<SenderGroupList>(SENDER_GROUP_PATHS.list), { revalidateOnFocus: false });

export const createSenderGroup = (name: string, levels: SecurityLevel[]) =>
  apiClient.post<{ group: SenderGroup }>(SENDER_GROUP_PATHS.list, { name, levels });

export const updateSenderGroup = async (groupUuid: string, body: UpdateSenderGroupBody) =>
  (await apiClient.request<{ group: SenderGroup }>('PATCH', SENDER_GROUP_PATHS.one(groupUuid), { body })).data;

export const deleteSenderGroup = async (groupUuid: string): Promise<void> => {
  await apiClient.request('DELETE', SENDER_GROUP_PATHS.one(groupUuid));
};

export const setUserSender = async (userUuid: string, body: UpdateUserSenderBody) =>
  (await apiClient.request<AdminUser>('PATCH', SENDER_GROUP_PATHS.userSender(userUuid), { body })).data;
