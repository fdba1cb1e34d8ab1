import { call } from '@shared/api/call';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { SENDER_GROUP_ENDPOINTS as E } from '@shared/contract/endpoints/sender-groups';
import type { UpdateSenderGroupBody, UpdateUserSenderBody } from '@shared/contract/sender-groups';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** Sender groups and per-user sender settings (shared/contract/sender-groups.ts), ROLE_ADMIN. */
export const useSenderGroups = (enabled: boolean) =>
  useSWR(enabled ? 'admin/sender-groups' : null, () => call(apiClient, E.list, {}), { revalidateOnFocus: false });

export const createSenderGroup = (name: string, levels: SecurityLevel[]) =>
  call(apiClient, E.create, { body: { name, levels } });

export const updateSenderGroup = async (groupUuid: string, body: UpdateSenderGroupBody) =>
  call(apiClient, E.update, { params: { groupUuid }, body });

export const deleteSenderGroup = async (groupUuid: string): Promise<void> => {
  await call(apiClient, E.remove, { params: { groupUuid } });
};

export const setUserSender = async (userUuid: string, body: UpdateUserSenderBody) =>
  call(apiClient, E.userSender, { params: { userUuid }, body });
