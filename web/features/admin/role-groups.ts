import type { RoleName } from '@shared/contract/constants';

/**
 * Every role name of SPEC §6, grouped for the users page; each has a label and an explanation
 * (`admin:roles.names.<key>` / `admin:roles.hints.<key>`, key = `roleKey(role)`). Only
 * administrators grant or take the administrator roles (the server refuses it to ROLE_USER_ADMIN).
 */
export const ROLE_GROUPS: ReadonlyArray<{ id: string; roles: readonly RoleName[] }> = [
  { id: 'administration', roles: ['ROLE_ADMIN', 'ROLE_ROOT', 'ROLE_USER_ADMIN', 'config.group.reporting', 'config.group.remoting'] },
  { id: 'deliveries', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_SENDER_EXTERNAL', 'ROLE_RECEIVER', 'ROLE_OUTLOOK', 'ROLE_SUBMITBOX_OWNER'] },
  {
    id: 'datarooms',
    roles: ['ROLE_SECUROOMS_USER', 'ROLE_SECUROOMS_CREATOR', 'ROLE_SECUROOMS_SHARER', 'config.group.datarooms', 'ROLE_SHARES_CAN_CREATE', 'ROLE_SHARES_CAN_INVITE', 'ROLE_SHARES_CAN_WRITE'],
  },
  { id: 'forms', roles: ['ROLE_SECUFORMS', 'ROLE_SUBMITTER', 'ROLE_SECUFLOWS_ACCESS'] },
  { id: 'visitors', roles: ['ROLE_ANONYMOUS', 'ROLE_RECEIVER_ANONYMOUS'] },
];

export const ADMIN_ONLY_ROLES: readonly RoleName[] = ['ROLE_ADMIN', 'ROLE_ROOT'];

/** A role name as an i18n key segment (`config.group.reporting` → `config_group_reporting`). */
export const roleKey = (role: RoleName): string => role.replace(/\./g, '_');

/** Roles a new user gets unless the administrator changes them (the server's default). */
export const DEFAULT_NEW_USER_ROLES: readonly RoleName[] = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER'];

/** Whether someone with `actorRoles` may manage an account with `subjectRoles` (server: `mayManageAccountOf`). */
export function mayManage(actorRoles: readonly RoleName[], subjectRoles: readonly RoleName[]): boolean {
  return actorRoles.includes('ROLE_ADMIN') || !subjectRoles.some((r) => ADMIN_ONLY_ROLES.includes(r));
}
