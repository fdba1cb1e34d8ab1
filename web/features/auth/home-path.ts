import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS } from '@shared/contract/endpoints/rooms';
import { apiClient } from '@web/lib/api-client';
import { ROUTES } from '@web/lib/routes';

/** Roles that make the delivery area someone's home: they may send (or answer) deliveries. */
const SENDING_ROLES: readonly string[] = ['ROLE_SENDER', 'ROLE_SENDER_EXTERNAL'];

/**
 * Where a sign-in without a `continue` target lands (issue 32 §1): Datarooms for a data-room-only
 * account — one that may not send deliveries (e.g. registered from a room invitation) and has a
 * data room; everyone else the inbox (also when the room list cannot be read).
 */
export async function homeAfterSignIn(roleNames: readonly string[]): Promise<string> {
  if (roleNames.some((role) => SENDING_ROLES.includes(role))) return ROUTES.inbox;
  const rooms = await call(apiClient, ROOM_ENDPOINTS.list, { query: { pageSize: 1 } }).catch(() => null);
  return rooms && rooms.rooms.length > 0 ? ROUTES.datarooms : ROUTES.inbox;
}
