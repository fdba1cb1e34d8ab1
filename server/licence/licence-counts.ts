import { LICENCE_HOLDERS_SHOWN, LICENCE_KINDS, LICENCE_LIMIT_ERROR, type LicenceCount, type LicenceKind, type LicenceLimitMetadata } from '@shared/contract/licence';
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { KuvertConfig } from '../config';
import { HttpError } from '../core/http-error';
import type { Database } from '../db/schema';

/** The role that lets an account create data rooms (SPEC §6: "data room creation needs a license"). */
export const DATA_ROOM_CREATOR_ROLE = 'ROLE_SECUROOMS_CREATOR';

type Db = Kysely<Database> | Transaction<Database>;

/** The operator's caps (`KUVERT_LICENCE_*`); null = no cap. */
export function licenceCaps(config: Pick<KuvertConfig, 'licenceSenders' | 'licenceDataRoomCreators' | 'licenceActiveForms'>): Record<LicenceKind, number | null> {
  return {
    senders: config.licenceSenders ?? null,
    dataRoomCreators: config.licenceDataRoomCreators ?? null,
    activeForms: config.licenceActiveForms ?? null,
  };
}

/**
 * The accounts holding a licence (senders: the `licensed` flag; creators: the role in the JSON
 * role list). A disabled account holds none (issue 33 §2): it cannot use it, and enabling it again
 * needs a free seat (admin-users-routes.ts).
 */
function holdersQuery(db: Db, kind: 'senders' | 'dataRoomCreators'): SelectQueryBuilder<Database, 'users', object> {
  const users = db.selectFrom('users').where('disabled', '=', 0);
  return kind === 'senders' ? users.where('licensed', '=', 1) : users.where('roles', 'like', `%"${DATA_ROOM_CREATOR_ROLE}"%`);
}

/** How many hold the licence now (active forms: rows of server/forms, counted without importing it). */
export async function licenceUsed(db: Db, kind: LicenceKind): Promise<number> {
  if (kind === 'activeForms') {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from forms where active = 1`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  const row = await holdersQuery(db, kind).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One licence for the page: cap, count and the first holders by address. */
export async function licenceCount(db: Db, config: KuvertConfig, kind: LicenceKind): Promise<LicenceCount> {
  const cap = licenceCaps(config)[kind];
  const used = await licenceUsed(db, kind);
  if (kind === 'activeForms') return { kind, cap, used, available: true, holders: [] };
  const rows = await holdersQuery(db, kind)
    .select(['uuid', 'email', 'first_name', 'last_name', 'disabled', 'email_verified'])
    .orderBy('email')
    .limit(LICENCE_HOLDERS_SHOWN)
    .execute();
  const holders = rows.map((r) => ({ uuid: r.uuid, email: r.email, firstName: r.first_name, lastName: r.last_name, disabled: r.disabled === 1, emailVerified: r.email_verified === 1 }));
  return { kind, cap, used, available: true, holders };
}

/** The licences an account takes when it is enabled again (it held none while disabled). */
export function licencesHeldBy(user: { licensed: number; roles: string }): LicenceKind[] {
  const kinds: LicenceKind[] = [];
  if (user.licensed === 1) kinds.push('senders');
  if (user.roles.includes(`"${DATA_ROOM_CREATOR_ROLE}"`)) kinds.push('dataRoomCreators');
  return kinds;
}

export async function licenceOverview(db: Db, config: KuvertConfig): Promise<LicenceCount[]> {
  return Promise.all(LICENCE_KINDS.map((kind) => licenceCount(db, config, kind)));
}

/**
 * Refuses a grant that would take a licence beyond its cap: 409 LicenseLimitExceededException with
 * the figures (SPEC §8 "license limit reached"). Call it before granting `requested` more. A cap
 * lowered below the count takes nothing away; it only stops new grants.
 */
export async function assertLicenceAvailable(db: Db, config: KuvertConfig, kind: LicenceKind, requested = 1): Promise<void> {
  const cap = licenceCaps(config)[kind];
  if (cap === null || requested <= 0) return;
  const used = await licenceUsed(db, kind);
  if (used + requested <= cap) return;
  const metadata: LicenceLimitMetadata = { licence: kind, cap, used, requested };
  throw new HttpError(409, LICENCE_LIMIT_ERROR, `Licence limit reached: ${used} of ${cap} in use (${kind}); contact sales to raise the limit`, { ...metadata });
}
