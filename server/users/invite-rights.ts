import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import { roleNamesOf, type UserRow } from './users-repository';

/**
 * Whether the user may invite an address without an account (by sending it a delivery or by
 * sharing a data room with it): everyone, unless `kuvert.delivery.invite.requireRole` is on —
 * then only holders of ROLE_SHARES_CAN_INVITE (SPEC §8 InviteUserToShareException).
 */
export async function mayInvite(app: FastifyInstance, user: Pick<UserRow, 'roles'>): Promise<boolean> {
  if ((await app.settings.get<boolean>(DELIVERY_SETTING_KEYS.inviteRequiresRole)) !== true) return true;
  return roleNamesOf(user).includes('ROLE_SHARES_CAN_INVITE');
}
