import { LICENCE_LIMIT_ERROR, type LicenceKind, type LicenceLimitMetadata } from '@shared/contract/licence';
import type { RoomCreationPolicy } from '@shared/contract/room-admin';
import type { Kysely } from 'kysely';
import type { KuvertConfig } from '../../config';
import { HttpError } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import type { Database } from '../../db/schema';
import { DATA_ROOM_CREATOR_ROLE, licenceCaps, licenceUsed } from '../../licence/licence-counts';
import { roleNamesOf } from '../../users/users-repository';
import type { RoomKind } from './room-kind';

/**
 * SPEC §6/§8 "license overused": a room is created on the strength of a licence — the data room
 * creator role (`dataRoomCreators`) or the sender licence (`senders`; the only one for E2E rooms).
 * When every licence that would let this caller create is held by more accounts than its cap (the
 * operator lowered the cap below the count), creation is refused with 409
 * LicenseLimitExceededException and the figures of the first of them (`requested: 0`: nothing more
 * is asked for, the count is already over). At the cap (used = cap) every holder still creates.
 */
export async function refuseRoomCreationOverLicence(
  db: Kysely<Database>,
  config: KuvertConfig,
  user: RequestContext['user'],
  kind: { policy: RoomCreationPolicy; roomKind: RoomKind },
): Promise<void> {
  const seats: LicenceKind[] = [];
  if (kind.roomKind === 'plain' && roleNamesOf(user).includes(DATA_ROOM_CREATOR_ROLE)) seats.push('dataRoomCreators');
  if (user.licensed === 1 && (kind.roomKind === 'secure' || kind.policy === 'licenceOrPermission')) seats.push('senders');
  const caps = licenceCaps(config);
  let over: LicenceLimitMetadata | undefined;
  for (const licence of seats) {
    const cap = caps[licence];
    if (cap === null) return;
    const used = await licenceUsed(db, licence);
    if (used <= cap) return;
    over ??= { licence, cap, used, requested: 0 };
  }
  if (!over) return;
  throw new HttpError(409, LICENCE_LIMIT_ERROR, `Licence overused: ${over.used} of ${over.cap} in use (${over.licence}); ask your administrator`, { ...over });
}
