import type { DeliverySendConfig } from '@shared/contract/config';
import { type SecurityLevel } from '@shared/contract/deliveries';
import { SECURITY_LEVEL_ORDER, SECURITY_LEVEL_TABLE } from '@shared/contract/security-levels';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { HttpError } from '../core/http-error';
import type { Database } from '../db/schema';
import { spendLookupBudgetOrRefuse } from '../security/recipient-lookups';
import { mayInvite } from '../users/invite-rights';
import { roleNamesOf, type UserRow } from '../users/users-repository';

/**
 * Who may send what (SPEC §3 senders, §8 SenderNotLicensedException / InviteUserToShareException):
 * - sender groups limit the security levels (both the global `allowSecurityLevel1..4` and the
 *   group must allow a level; the minimal level is the first allowed);
 * - ROLE_SENDER_EXTERNAL without ROLE_SENDER (delivery-signup accounts) may only reply: every
 *   recipient must be the sender of a delivery the caller received;
 * - an unlicensed sender reaches licensed registered users only;
 * - with `kuvert.delivery.invite.requireRole` on, sending to an unregistered address (which invites
 *   it) needs ROLE_SHARES_CAN_INVITE.
 */

/** Stored group levels (JSON text) → the known wire values, in order. */
export function parseGroupLevels(json: string): SecurityLevel[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? SECURITY_LEVEL_ORDER.filter((l) => parsed.includes(l)) : [];
  } catch {
    return [];
  }
}

export const isReplyOnly = (user: Pick<UserRow, 'roles'>): boolean => {
  const roles = roleNamesOf(user);
  return roles.includes('ROLE_SENDER_EXTERNAL') && !roles.includes('ROLE_SENDER');
};

async function groupOf(db: Kysely<Database>, user: Pick<UserRow, 'sender_group_id'>) {
  if (user.sender_group_id === null) return undefined;
  return db.selectFrom('sender_groups').selectAll().where('id', '=', user.sender_group_id).executeTakeFirst();
}

/** The send config of this sender: the global one with the level flags limited by the sender's group. */
export async function senderSendConfig(app: FastifyInstance, user: UserRow): Promise<DeliverySendConfig> {
  const config = await app.settings.deliverySendConfig();
  const group = await groupOf(app.db, user);
  const limited = { ...config };
  if (group) {
    const levels = parseGroupLevels(group.levels);
    for (const { wire, allowFlag } of SECURITY_LEVEL_TABLE) limited[allowFlag] &&= levels.includes(wire);
  }
  return {
    ...limited,
    sender: { licensed: user.licensed === 1, replyOnly: isReplyOnly(user), mayInvite: await mayInvite(app, user), group: group?.name ?? null },
  };
}

/** Lower-cased addresses of everyone who sent the user a delivery (sent, not deleted, not removed from the inbox). */
async function replyTargets(db: Kysely<Database>, user: UserRow, among: readonly string[]): Promise<Set<string>> {
  if (among.length === 0) return new Set();
  const rows = await db
    .selectFrom('delivery_recipients as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .innerJoin('users as u', 'u.id', 'd.sender_id')
    .select(sql<string>`lower(u.email)`.as('email'))
    .where('r.email', '=', user.email.toLowerCase())
    .where('r.removed_at', 'is', null)
    .where('d.status', '=', 'sent')
    .where(sql`lower(u.email)`, 'in', [...among])
    .execute();
  // Someone who asked the user for files (an open data-room request, server/rooms/requests/requests.ts) may be answered too.
  const requesters = await db
    .selectFrom('room_requests as q')
    .innerJoin('users as u', 'u.id', 'q.requester_id')
    .select(sql<string>`lower(u.email)`.as('email'))
    .where('q.email', '=', user.email.toLowerCase())
    .where('q.used_at', 'is', null)
    .where('q.revoked_at', 'is', null)
    .where('q.expires_at', '>', Date.now())
    .where(sql`lower(u.email)`, 'in', [...among])
    .execute();
  return new Set([...rows, ...requesters].map((r) => r.email));
}

const replyOnlyRefusal = (recipients: string[]) =>
  new HttpError(403, 'RecipientNotAllowedException', 'You can only reply to the senders of deliveries you received', { recipients, reason: 'replyOnly' });

/**
 * What a sender may ask about (recipient status): a reply-only account only about the people it
 * may reply to, anyone else about any address (the budget in security/recipient-lookups.ts applies).
 */
export async function assertMayAskAbout(app: FastifyInstance, sender: UserRow, addresses: readonly string[]): Promise<void> {
  if (!isReplyOnly(sender) || addresses.length === 0) return;
  const targets = await replyTargets(app.db, sender, addresses);
  const refused = addresses.filter((a) => !targets.has(a));
  if (refused.length > 0) throw replyOnlyRefusal(refused);
}

/**
 * Every address (recipients and additional ones, normalised) against the sender rules; throws the
 * §8 class with the offending addresses in `metadata.recipients`. Checked at create, update and send.
 * What follows tells registered from unregistered addresses (the licence and invitation rules
 * here, the draft's `registered` flags and the level-3/4 key copies after), so the addresses cost
 * the look-up budget first (security/recipient-lookups.ts; asked before = free): once it is spent,
 * every draft with a new address is 429 `lookupBudget`, registered or not.
 */
export async function checkSenderMayReach(app: FastifyInstance, sender: UserRow, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  if (isReplyOnly(sender)) {
    const targets = await replyTargets(app.db, sender, addresses);
    const refused = addresses.filter((a) => !targets.has(a));
    if (refused.length > 0) throw replyOnlyRefusal(refused);
  }
  await spendLookupBudgetOrRefuse(app.db, sender.id, addresses);
  const users = await app.db
    .selectFrom('users')
    .select([sql<string>`lower(email)`.as('email'), 'licensed'])
    .where(sql`lower(email)`, 'in', [...addresses])
    .execute();
  const registered = new Map(users.map((u) => [u.email, u.licensed === 1]));
  if (sender.licensed !== 1) {
    const refused = addresses.filter((a) => registered.get(a) !== true);
    if (refused.length > 0) {
      throw new HttpError(403, 'SenderNotLicensedException', 'Without a licence you can only send to licensed users', { recipients: refused });
    }
  }
  const unregistered = addresses.filter((a) => !registered.has(a));
  if (unregistered.length > 0 && !(await mayInvite(app, sender))) {
    throw new HttpError(403, 'InviteUserToShareException', 'You may not invite new users; send to registered users only', { recipients: unregistered });
  }
}
