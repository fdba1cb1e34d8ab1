// Levels 3/4 across a connection (issue 30 §2, docs/trust-networks.md "Levels 3 and 4"): signed key
// look-ups answered for this server's users, relayed for the sender's browser, the wrapped keys kept
// for partner recipients until the transfer carries them, and the partner sender's keys on the
// recipient's side. No key or plaintext byte passes through here: only public keys and wrapped copies.
import type { NewDescriptor, RecipientKeysResponse } from '@shared/contract/deliveries';
import { TRUST_DELIVERY_ERROR, TRUST_DELIVERY_PATHS, TrustKeysSchema, type TrustDeliveryAnnounce, type TrustDescriptor, type TrustKeyLookup, type TrustKeys } from '@shared/contract/trust-networks';
import type { UserPublicKeysResponse } from '@shared/contract/secupass';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { badRequest, HttpError } from '../core/http-error';
import type { DeliveryRow } from '../deliveries/records';
import type { UserRow } from '../users/users-repository';
import type { TrustConnectionRow } from './connections';
import { callPartner, PartnerCallError, sendSigned, verifyPartnerCall } from './partner-calls';
import { partnerRoutes } from './partner-routes';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * `POST /api/2/trust/keys` on the recipient's server: the live public keys of its users at the
 * addresses asked. Only addresses this server serves for that partner: an active account, not in
 * the partner's own domains (refused 403 `recipientNotServed`, audited, as an announce to them is).
 */
export async function answerKeyLookup(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, lookup: TrustKeyLookup, rawBody: string): Promise<FastifyReply> {
  const { connection } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.keys, rawBody);
  const emails = [...new Set(lookup.emails.map((e) => e.toLowerCase()))];
  const partnerDomains = JSON.parse(connection.partner_domains) as string[];
  const users = await app.db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, 'in', emails)
    .where('disabled', '=', 0)
    .execute();
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u as UserRow]));
  const unknown = emails.filter((email) => !byEmail.has(email) || partnerDomains.includes(domainOf(email)));
  if (unknown.length > 0) {
    await app.auditLog.record({ actorUserId: null, action: 'trustNetwork.deliveryRefused', subjectUserId: null, details: { reason: 'recipientNotServed', connectionId: connection.uuid, recipients: unknown } });
    throw new HttpError(403, TRUST_DELIVERY_ERROR, 'This server does not serve every address asked', { reason: 'recipientNotServed', recipients: unknown });
  }
  const states = await app.secupass.statesOf(users.map((u) => u.id));
  const recipients: TrustKeys['recipients'] = [];
  for (const email of emails) {
    const user = byEmail.get(email)!;
    const state = states.get(user.id) ?? 'none';
    recipients.push({ email, userUuid: user.uuid, secupassState: state, keys: state === 'active' ? await app.secupass.publicKeysOf(user.id) : [] });
  }
  return sendSigned(app, reply, connection, 200, { type: 'keys', recipients } satisfies TrustKeys);
}

type PartnerRecipientKeys = RecipientKeysResponse['recipients'][number];

/**
 * On the sender's server, for a level 3/4 draft: the keys of the addresses a partner serves, from
 * the partner's signed answer (one look-up per connection), remembered per draft and address (the
 * wrapped copies are checked against them; `null`: the chips' look-up, nothing remembered). A
 * partner that does not answer: 503, the send waits.
 */
export async function partnerRecipientKeys(app: FastifyInstance, delivery: Pick<DeliveryRow, 'id'> | null, emails: readonly string[]): Promise<Map<string, PartnerRecipientKeys>> {
  const routes = await partnerRoutes(app.db, [...emails]);
  const byConnection = new Map<number, { connection: TrustConnectionRow; emails: string[] }>();
  for (const [email, connection] of routes) {
    const entry = byConnection.get(connection.id) ?? { connection, emails: [] };
    entry.emails.push(email);
    byConnection.set(connection.id, entry);
  }
  const out = new Map<string, PartnerRecipientKeys>();
  for (const { connection, emails: asked } of byConnection.values()) {
    let answer: TrustKeys;
    try {
      answer = TrustKeysSchema.parse(await callPartner(app, connection, TRUST_DELIVERY_PATHS.keys, { type: 'keyLookup', emails: asked } satisfies TrustKeyLookup));
    } catch (error) {
      const status = error instanceof PartnerCallError ? error.status : null;
      if (status === 403) throw badRequest('The partner server does not serve some recipients', { reason: 'recipientNotServed', partnerServer: connection.partner_url });
      throw new HttpError(503, 'ServiceUnavailableException', 'The partner server did not answer the key look-up', { partnerServer: connection.partner_url });
    }
    for (const r of answer.recipients) {
      const email = r.email.toLowerCase();
      if (!asked.includes(email)) continue;
      const key = r.keys.find((k) => k.usage === 'encryption');
      const now = Date.now();
      if (delivery) await app.db
        .insertInto('trust_partner_readers')
        .values({ delivery_id: delivery.id, email, user_uuid: r.userUuid, key_id: key?.keyId ?? null, descriptors: null, partner_url: connection.partner_url, created_at: now })
        .onConflict((oc) => oc.columns(['delivery_id', 'email']).doUpdateSet({ user_uuid: r.userUuid, key_id: key?.keyId ?? null, descriptors: null, partner_url: connection.partner_url, created_at: now }))
        .execute();
      out.set(email, { email, userUuid: r.userUuid, secupassState: r.secupassState, keys: r.keys, partnerServer: connection.partner_url });
    }
  }
  return out;
}

/**
 * PUT …/e2e on the sender's server: the descriptors for partner recipients (their user id on the
 * partner, as the look-up answered) are kept for the transfer, checked against the key the partner
 * named; the rest is returned for this server's own readers.
 */
export async function keepPartnerDescriptors(app: FastifyInstance, delivery: Pick<DeliveryRow, 'id'>, descriptors: readonly NewDescriptor[]): Promise<NewDescriptor[]> {
  const readers = await app.db.selectFrom('trust_partner_readers').selectAll().where('delivery_id', '=', delivery.id).execute();
  if (readers.length === 0) return [...descriptors];
  const byUuid = new Map(readers.map((r) => [r.user_uuid, r]));
  const kept = new Map<number, TrustDescriptor[]>();
  const rest: NewDescriptor[] = [];
  for (const d of descriptors) {
    const reader = byUuid.get(d.recipientUserUuid);
    if (!reader) {
      rest.push(d);
      continue;
    }
    if (reader.key_id === null || d.recipientKeyId !== reader.key_id || d.wrappedKey.recipientKeyId !== reader.key_id) {
      throw badRequest('The key is not the live encryption key the partner server named', { field: 'descriptors', reason: 'recipientKeyNotLive', recipientUserUuid: d.recipientUserUuid });
    }
    kept.set(reader.id, [...(kept.get(reader.id) ?? []), { recipientKeyId: d.recipientKeyId, fileId: d.fileId, wrappedKey: d.wrappedKey }]);
  }
  for (const reader of readers) {
    const copies = kept.get(reader.id);
    await app.db.updateTable('trust_partner_readers').set({ descriptors: copies ? JSON.stringify(copies) : null }).where('id', '=', reader.id).execute();
  }
  return rest;
}

/** The E2E part of an announce (levels 3/4): manifest, the sender's keys and the partner readers' wrapped copies. */
export async function e2eAnnounceOf(app: FastifyInstance, delivery: DeliveryRow, recipients: readonly string[]): Promise<NonNullable<TrustDeliveryAnnounce['e2e']>> {
  const sender = await app.db.selectFrom('users').select(['id', 'uuid']).where('id', '=', delivery.sender_id).executeTakeFirstOrThrow();
  const readers = await app.db.selectFrom('trust_partner_readers').select(['email', 'descriptors']).where('delivery_id', '=', delivery.id).execute();
  return {
    deliveryId: delivery.uuid,
    manifest: delivery.manifest ?? '',
    senderUserUuid: sender.uuid,
    senderKeys: (await app.secupass.publicKeysWithRetiredOf(sender.id)).map(({ keyId, usage, publicKey, fingerprint, retired }) => ({ keyId, usage, publicKey, fingerprint, ...(retired ? { retired } : {}) })),
    readers: readers
      .filter((r) => r.descriptors !== null && recipients.includes(r.email))
      .map((r) => ({ email: r.email, descriptors: JSON.parse(r.descriptors!) as TrustDescriptor[] })),
  };
}

/** On the recipient's server: the signer of an E2E delivery that came through a connection (its user id and keys on the sender's server). */
export async function partnerSenderOf(app: FastifyInstance, deliveryId: number): Promise<{ userUuid: string } | undefined> {
  const row = await app.db.selectFrom('trust_inbound').select('sender_user_uuid').where('delivery_id', '=', deliveryId).executeTakeFirst();
  return row?.sender_user_uuid ? { userUuid: row.sender_user_uuid } : undefined;
}

/**
 * GET /users/{userUuid}/public-keys on the recipient's server for a partner's sender: answered to a
 * recipient of an E2E delivery that sender sent through a connection (as a local sender's keys are
 * to their recipients), from what the sender's server announced.
 */
export async function partnerSenderKeys(app: FastifyInstance, caller: UserRow, userUuid: string): Promise<UserPublicKeysResponse | undefined> {
  const row = await app.db
    .selectFrom('trust_inbound')
    .innerJoin('deliveries', 'deliveries.id', 'trust_inbound.delivery_id')
    .innerJoin('delivery_recipients', 'delivery_recipients.delivery_id', 'deliveries.id')
    .innerJoin('users', 'users.id', 'deliveries.sender_id')
    .select(['trust_inbound.sender_keys', 'users.email'])
    .where('trust_inbound.sender_user_uuid', '=', userUuid)
    .where('deliveries.status', '=', 'sent')
    .where('delivery_recipients.email', '=', caller.email.toLowerCase())
    .orderBy('trust_inbound.id', 'desc')
    .executeTakeFirst();
  if (!row?.sender_keys) return undefined;
  return { userUuid, email: row.email, keys: JSON.parse(row.sender_keys) as UserPublicKeysResponse['keys'] };
}
