// Levels 3/4: whom a sender may ask about (chip warnings, recipients' public keys) and the look-up budget.
import { type RecipientKeysResponse, type RecipientStatusResponse } from '@shared/contract/deliveries';
import type { SecuPassState } from '@shared/contract/secupass';
import type { FastifyInstance } from 'fastify';
import  { rateLimitExceeded } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { spendLookupBudgetOrRefuse } from '../security/recipient-lookups';
import type { UserRow } from '../users/users-repository';
import { requireE2e } from './e2e-keys';
import { isRegisteredRecipient, ownDraft, usersByEmail } from './records';
import { assertMayAskAbout } from './senders';

async function keysOf(app: FastifyInstance, user: UserRow | undefined, states: Map<number, SecuPassState>) {
  if (!user) return { userUuid: null, secupassState: 'none' as const, keys: [] };
  const state = states.get(user.id) ?? 'none';
  return { userUuid: user.uuid, secupassState: state, keys: state === 'active' ? await app.secupass.publicKeysOf(user.id) : [] };
}

/** Requests per sender in RECIPIENT_STATUS_LIMIT.windowMs: plenty for typing; the addresses are budgeted apart (RECIPIENT_LOOKUP_LIMIT). */
export const RECIPIENT_STATUS_LIMIT = { limit: 120, windowMs: 10 * 60_000 } as const;

/** The account's enumeration budget (distinct addresses per hour) → 429 when it is spent. */
const spendLookups = (app: FastifyInstance, user: UserRow, addresses: readonly string[]): Promise<void> => spendLookupBudgetOrRefuse(app.db, user.id, addresses);

/**
 * POST /deliveries/recipient-status: the chip warnings (SPEC §5). Only registered yes/no and an
 * active SecuPass yes/no per address, in the order asked. Limits against enumeration:
 * - reply-only accounts (delivery signup, ROLE_SENDER_EXTERNAL) may ask only about the people they
 *   may reply to (403 `RecipientNotAllowedException`, `reason: replyOnly`, as at send);
 * - requests per sender (RECIPIENT_STATUS_LIMIT) and distinct addresses per account and hour
 *   (RECIPIENT_LOOKUP_LIMIT, shared with recipient-keys) → 429.
 */
export async function recipientStatus({ app, user: sender }: RequestContext, emails: readonly string[], withKeys = false): Promise<RecipientStatusResponse> {
  const allowed = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.recipientStatusUser, String(sender.id), RECIPIENT_STATUS_LIMIT);
  if (!allowed.allowed) throw rateLimitExceeded(allowed.retryAfterMs);
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  await assertMayAskAbout(app, sender, wanted);
  await spendLookups(app, sender, wanted);
  const users = await usersByEmail(app.db, wanted);
  const states = await app.secupass.statesOf([...users.values()].map((u) => u.id));
  // Addresses a trust-network partner serves: its signed look-up answers (the chips are hints; a partner away leaves them as here).
  const partners = await app.deliveryHooks.partners.recipientKeys(null, wanted).catch(() => new Map<string, RecipientKeysResponse['recipients'][number]>());
  const recipients = [];
  for (const email of emails) {
    const partner = partners.get(email.trim().toLowerCase());
    if (partner) {
      const key = partner.keys.find((k) => k.usage === 'encryption');
      const active = partner.secupassState === 'active' && key !== undefined;
      recipients.push({
        email,
        registered: true,
        hasPassphrase: active,
        ...(withKeys && active && partner.userUuid ? { userUuid: partner.userUuid, encryptionKey: { keyId: key.keyId, usage: key.usage, publicKey: key.publicKey } } : {}),
        partnerServer: partner.partnerServer!,
      });
      continue;
    }
    const user = users.get(email.trim().toLowerCase());
    const hasPassphrase = user !== undefined && states.get(user.id) === 'active';
    const encryptionKey = withKeys && hasPassphrase ? (await app.secupass.publicKeysOf(user.id)).find((k) => k.usage === 'encryption') : undefined;
    recipients.push({
      email,
      registered: isRegisteredRecipient(user),
      hasPassphrase,
      ...(user && encryptionKey ? { userUuid: user.uuid, encryptionKey: { keyId: encryptionKey.keyId, usage: encryptionKey.usage, publicKey: encryptionKey.publicKey } } : {}),
    });
  }
  return { recipients };
}

/**
 * GET /users/{userUuid}/public-keys: whom a caller may look up — themselves, and the people they
 * share a delivery with (the sender of a delivery they received, a recipient of one they sent or
 * drafted). A recipient needs the sender's signing key to check a level 3/4 manifest; nobody needs
 * the keys (and the address) of a stranger, so strangers are 404 like unknown ids. NB: data rooms
 * and trust networks add their members here when they arrive.
 */
export async function mayLookUpKeysOf(app: FastifyInstance, caller: UserRow, target: UserRow): Promise<boolean> {
  if (caller.id === target.id) return true;
  const received = await app.db
    .selectFrom('delivery_recipients as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .select('d.id')
    .where('d.sender_id', '=', target.id)
    .where('d.status', '=', 'sent')
    .where('r.email', '=', caller.email.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  if (received) return true;
  const sent = await app.db
    .selectFrom('deliveries as d')
    .innerJoin('delivery_recipients as r', 'r.delivery_id', 'd.id')
    .select('d.id')
    .where('d.sender_id', '=', caller.id)
    .where('d.status', 'in', ['draft', 'sent'])
    .where('r.email', '=', target.email.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  return sent !== undefined;
}

/** GET …/recipient-keys (the draft's sender): what the client wraps file keys to. */
export async function recipientKeys({ app, user: sender }: RequestContext, deliveryUuid: string): Promise<RecipientKeysResponse> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  requireE2e(delivery);
  const rows = await app.db.selectFrom('delivery_recipients').select(['email']).where('delivery_id', '=', delivery.id).orderBy('id').execute();
  // A draft's recipients are typed freely: its keys answer costs the same budget as the chips.
  await spendLookups(app, sender, rows.map((r) => r.email));
  const users = await usersByEmail(app.db, rows.map((r) => r.email));
  const states = await app.secupass.statesOf([sender.id, ...[...users.values()].map((u) => u.id)]);
  // Addresses a trust-network partner serves: their keys come from the partner's signed look-up.
  const partners = await app.deliveryHooks.partners.recipientKeys(delivery, rows.map((r) => r.email));
  const recipients = [];
  for (const r of rows) recipients.push(partners.get(r.email) ?? { email: r.email, ...(await keysOf(app, users.get(r.email), states)) });
  return { sender: { userUuid: sender.uuid, email: sender.email, keys: await app.secupass.publicKeysOf(sender.id) }, recipients };
}
