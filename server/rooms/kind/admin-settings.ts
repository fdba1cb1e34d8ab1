import type { ConfigValue } from '@shared/contract/config';
import { ROOM_CREATION_POLICIES, ROOM_SETTING_KEYS, TRASH_RETENTION_DAYS_DEFAULT, type RoomCreationPolicy } from '@shared/contract/room-admin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RequestContext } from '../../core/request-context';
import { roleNamesOf } from '../../users/users-repository';

/** Administration › Secure rooms › General (shared/contract/room-admin.ts), as the server uses them. */
export interface RoomSettings {
  creation: RoomCreationPolicy;
  e2eAllowed: boolean;
  trashRetentionDays: number;
}

const DEFAULTS: RoomSettings = { creation: 'licenceOrPermission', e2eAllowed: true, trashRetentionDays: TRASH_RETENTION_DAYS_DEFAULT };

/**
 * The room settings read straight from the settings table (one query), so any module with the
 * database reads them without the settings store: the E2E rooms read `e2eAllowed` here, room
 * creation `creation`, the trash retention job `trashRetentionDays`. Values an older server
 * wrote wrongly fall back to the defaults.
 */
export async function roomSettings(db: Kysely<Database>): Promise<RoomSettings> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', Object.values(ROOM_SETTING_KEYS)).execute();
  const stored = new Map(rows.map((r) => [r.key, JSON.parse(r.value) as ConfigValue]));
  const creation = stored.get(ROOM_SETTING_KEYS.creation);
  const e2e = stored.get(ROOM_SETTING_KEYS.e2eAllowed);
  const days = stored.get(ROOM_SETTING_KEYS.trashRetentionDays);
  return {
    creation: (ROOM_CREATION_POLICIES as readonly unknown[]).includes(creation) ? (creation as RoomCreationPolicy) : DEFAULTS.creation,
    e2eAllowed: typeof e2e === 'boolean' ? e2e : DEFAULTS.e2eAllowed,
    trashRetentionDays: typeof days === 'number' && Number.isInteger(days) && days >= 1 ? days : DEFAULTS.trashRetentionDays,
  };
}

/** SPEC §6 "creation needs a licence or permission from an administrator", narrowed by the policy. */
export function mayCreateRoomsUnder(policy: RoomCreationPolicy, user: RequestContext['user']): boolean {
  const permitted = roleNamesOf(user).includes('ROLE_SECUROOMS_CREATOR');
  if (policy === 'nobody') return false;
  if (policy === 'permissionOnly') return permitted;
  return permitted || user.licensed === 1;
}

/**
 * What the caller may create (the room list answers it so the web shows only the buttons that
 * work): the same rules createRoom and createE2eRoom enforce — E2E also needs a licence and
 * Secure rooms › General allowing E2E rooms.
 */
export async function creationRightsOf(db: Kysely<Database>, user: RequestContext['user']): Promise<{ plain: boolean; e2e: boolean }> {
  const settings = await roomSettings(db);
  const plain = mayCreateRoomsUnder(settings.creation, user);
  return { plain, e2e: plain && settings.e2eAllowed && user.licensed === 1 };
}
