// Levels 3/4 across a connection, the release (issue 30 §2, docs/trust-networks.md "Release"): a
// recipient on the partner without a passphrase is invited there; once they set one, the partner
// tells the sender's server (release-needed), the sender's browser wraps the keys to the new key
// (looked up through the connection again) and the copies travel back to the partner.
import { reduceLanguage } from '@shared/contract/constants';
import { DELIVERY_WEB_LINKS, type NewDescriptor, type ReleaseList } from '@shared/contract/deliveries';
import { E2E_SECURITY_LEVELS } from '@shared/contract/security-levels';
import { TRUST_DELIVERY_ERROR, TRUST_DELIVERY_PATHS, TrustKeysSchema, type TrustDescriptor, type TrustRelease, type TrustReleaseNeeded } from '@shared/contract/trust-networks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { badRequest, HttpError } from '../core/http-error';
import { requiredFileIds } from '../deliveries/e2e-keys';
import { mailReleaseNeeded } from '../deliveries/e2e-release';
import { activity, displayName, type DeliveryRow } from '../deliveries/records';
import { enqueueJob, type JobKind } from '../jobs/job-queue';
import { ENCRYPTED_SUBJECT_PLACEHOLDER } from '../mail/delivery-templates';
import type { UserRow } from '../users/users-repository';
import { inboundConnectionOf } from './inbound';
import { callPartner, PartnerCallError, sendSigned, verifyPartnerCall } from './partner-calls';

const refuse = async (app: FastifyInstance, connectionUuid: string, reason: string, message: string): Promise<never> => {
  await app.auditLog.record({ actorUserId: null, action: 'trustNetwork.deliveryRefused', subjectUserId: null, details: { reason, connectionId: connectionUuid } });
  throw new HttpError(403, TRUST_DELIVERY_ERROR, message, { reason });
};

/** Partner recipients still waiting for copies in the sender's sent level 3/4 deliveries, with the connection their transfer went over. */
async function waitingPartnerReaders(app: FastifyInstance, sender: UserRow, deliveryId?: number) {
  let query = app.db
    .selectFrom('trust_partner_readers as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .innerJoin('trust_transfers as t', 't.delivery_id', 'd.id')
    .innerJoin('trust_connections as c', 'c.id', 't.connection_id')
    .selectAll('c')
    .select(['r.id as reader_id', 'r.email as reader_email', 'r.user_uuid as reader_uuid', 'r.key_id as reader_key_id', 't.uuid as transfer_uuid', 't.recipients as transfer_recipients', 'd.id as d_id', 'd.uuid as d_uuid', 'd.subject as d_subject', 'd.security_level as d_level', 'd.sent_at as d_sent_at'])
    .where('d.sender_id', '=', sender.id)
    .where('d.status', '=', 'sent')
    .where('d.security_level', 'in', E2E_SECURITY_LEVELS)
    .where('d.purged_at', 'is', null)
    .where('t.state', '=', 'delivered')
    .where('r.descriptors', 'is', null)
    .where('c.deleted_at', 'is', null);
  if (deliveryId !== undefined) query = query.where('d.id', '=', deliveryId);
  const rows = await query.orderBy('d.sent_at', 'desc').execute();
  return rows.filter((row) => (JSON.parse(row.transfer_recipients) as string[]).includes(row.reader_email));
}

/**
 * The sender's release list, partner part: each waiting partner recipient, asked again through the
 * connection (one signed look-up per connection); those with an active SecuPass now are listed with
 * the partner's keys (and remembered: a release must wrap to that key). A partner away lists nothing.
 */
export async function partnerReleaseItems(app: FastifyInstance, sender: UserRow): Promise<ReleaseList['items']> {
  const rows = await waitingPartnerReaders(app, sender);
  const items: ReleaseList['items'] = [];
  const byConnection = new Map<number, typeof rows>();
  for (const row of rows) byConnection.set(row.id, [...(byConnection.get(row.id) ?? []), row]);
  for (const group of byConnection.values()) {
    let answer;
    try {
      answer = TrustKeysSchema.parse(await callPartner(app, group[0]!, TRUST_DELIVERY_PATHS.keys, { type: 'keyLookup', emails: [...new Set(group.map((r) => r.reader_email))] }));
    } catch {
      continue;
    }
    for (const row of group) {
      const found = answer.recipients.find((r) => r.email.toLowerCase() === row.reader_email);
      const key = found?.keys.find((k) => k.usage === 'encryption');
      if (!found || found.secupassState !== 'active' || !key) continue;
      await app.db.updateTable('trust_partner_readers').set({ user_uuid: found.userUuid, key_id: key.keyId }).where('id', '=', row.reader_id).execute();
      items.push({ deliveryUuid: row.d_uuid, subject: row.d_subject, securityLevel: row.d_level as ReleaseList['items'][number]['securityLevel'], sentAt: row.d_sent_at === null ? null : Number(row.d_sent_at), recipient: { email: row.reader_email, userUuid: found.userUuid, keys: found.keys, partnerServer: row.partner_url } });
    }
  }
  return items;
}

/**
 * POST …/release for a partner recipient: copies of every file and the manifest for the key the
 * partner named in the release list's look-up, sent to the partner (which stores them and mails
 * its recipient). False: not a partner recipient of this delivery (the local release applies).
 */
export async function partnerRelease(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, descriptors: readonly NewDescriptor[]): Promise<boolean> {
  const uuids = new Set(descriptors.map((d) => d.recipientUserUuid));
  const reader = (await waitingPartnerReaders(app, sender, delivery.id)).find((r) => uuids.has(r.reader_uuid));
  if (!reader) return false;
  if (uuids.size !== 1) throw badRequest('A release is for one recipient at a time', { field: 'descriptors', reason: 'oneRecipient' });
  if (descriptors.some((d) => d.recipientKeyId !== reader.reader_key_id || d.wrappedKey.recipientKeyId !== reader.reader_key_id)) {
    throw badRequest('The key is not the live encryption key the partner server named', { field: 'descriptors', reason: 'recipientKeyNotLive' });
  }
  const needed = await requiredFileIds(app, delivery);
  if (!needed.every((fileId) => descriptors.some((d) => d.fileId === fileId)) || descriptors.some((d) => !needed.includes(d.fileId))) {
    throw badRequest('A release needs a copy of every file and of the manifest', { field: 'descriptors', reason: 'accessDescriptorsMissing' });
  }
  const copies: TrustDescriptor[] = descriptors.map(({ recipientKeyId, fileId, wrappedKey }) => ({ recipientKeyId, fileId, wrappedKey }));
  const release: TrustRelease = { type: 'release', transferId: reader.transfer_uuid, recipient: reader.reader_email, descriptors: copies };
  try {
    await callPartner(app, reader, TRUST_DELIVERY_PATHS.release(reader.transfer_uuid), release);
  } catch (error) {
    if (error instanceof PartnerCallError && error.status === 403) throw badRequest('The partner server refused the release (the key changed there): open the release list again', { reason: 'recipientKeyNotLive' });
    throw new HttpError(503, 'ServiceUnavailableException', 'The partner server did not take the release; try again later', { partnerServer: reader.partner_url });
  }
  await app.db.updateTable('trust_partner_readers').set({ descriptors: JSON.stringify(copies) }).where('id', '=', reader.reader_id).execute();
  const recipient = await app.db.selectFrom('delivery_recipients').select('id').where('delivery_id', '=', delivery.id).where('email', '=', reader.reader_email).executeTakeFirst();
  await activity(app.db, delivery.id, 'released', { actor: sender.email, ...(recipient ? { recipientId: recipient.id } : {}), detail: reader.reader_email });
  return true;
}

/**
 * `POST /api/2/trust/deliveries/{transferId}/release` on the recipient's server: the copies for a
 * recipient of that transfer, for their live key here (else refused `recipientKeyNotLive`), every
 * file and the manifest; the recipient is mailed that the delivery is released.
 */
export async function receiveRelease(app: FastifyInstance, request: FastifyRequest<{ Params: { transferId: string } }>, reply: FastifyReply, release: TrustRelease, rawBody: string): Promise<FastifyReply> {
  const { transferId } = request.params;
  const { connection } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.release(transferId), rawBody);
  const delivery = (await app.db
    .selectFrom('trust_inbound')
    .innerJoin('deliveries', 'deliveries.id', 'trust_inbound.delivery_id')
    .selectAll('deliveries')
    .where('trust_inbound.connection_id', '=', connection.id)
    .where('trust_inbound.transfer_uuid', '=', transferId)
    .executeTakeFirst()) as DeliveryRow | undefined;
  const email = release.recipient.toLowerCase();
  const recipient = delivery ? await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).where('email', '=', email).executeTakeFirst() : undefined;
  if (!delivery || !recipient || delivery.manifest === null || release.transferId !== transferId) return refuse(app, connection.uuid, 'unknownTransfer', 'No such transfer to this recipient over this connection');
  const user = (await app.db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email).executeTakeFirst()) as UserRow | undefined;
  const live = user ? (await app.secupass.publicKeysOf(user.id)).filter((k) => k.usage === 'encryption').map((k) => k.keyId) : [];
  if (!user || release.descriptors.some((d) => !live.includes(d.recipientKeyId) || d.wrappedKey.recipientKeyId !== d.recipientKeyId)) {
    return refuse(app, connection.uuid, 'recipientKeyNotLive', "A wrapped key is for a key that is not the recipient's live key here");
  }
  const needed = await requiredFileIds(app, delivery);
  if (!needed.every((fileId) => release.descriptors.some((d) => d.fileId === fileId)) || release.descriptors.some((d) => !needed.includes(d.fileId))) {
    throw badRequest('A release needs a copy of every file and of the manifest', { reason: 'accessDescriptorsMissing' });
  }
  for (const d of release.descriptors) {
    await app.secupass.addAccessDescriptor({ recipientUserId: user.id, recipientKeyId: d.recipientKeyId, resourceKind: 'delivery', resourceId: delivery.uuid, fileId: d.fileId, wrappedKey: d.wrappedKey });
  }
  await activity(app.db, delivery.id, 'released', { actor: connection.partner_url, recipientId: recipient.id, detail: email });
  const sender = await app.users.findById(delivery.sender_id);
  const language = reduceLanguage(user.language);
  await app.mailer
    .send({
      to: email,
      template: 'deliveryReleased',
      language,
      data: { senderName: sender ? displayName(sender) : '', subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language], link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.inbox(delivery.uuid)}` },
    })
    .catch((err: unknown) => request.log.error({ err, deliveryUuid: delivery.uuid }, 'release mail failed'));
  return sendSigned(app, reply, connection, 200, { type: 'ok' });
}

export const TRUST_RELEASE_NEEDED_JOB = 'trust-release-needed';
interface ReleaseNeededPayload {
  deliveryId: number;
  recipient: string;
}

/**
 * On the recipient's server, a recipient set a passphrase: for a delivery that came through a
 * connection, the sender's server is told (a signed call, retried while it is away) instead of
 * mailing the sender from here. True when the delivery came through a connection.
 */
export async function releaseNeededToPartner(app: FastifyInstance, delivery: Pick<DeliveryRow, 'id'>, email: string): Promise<boolean> {
  const inbound = await app.db.selectFrom('trust_inbound').select('id').where('delivery_id', '=', delivery.id).executeTakeFirst();
  if (!inbound) return false;
  await enqueueJob(app.db, TRUST_RELEASE_NEEDED_JOB, { deliveryId: delivery.id, recipient: email.toLowerCase() } satisfies ReleaseNeededPayload);
  app.jobs.kick();
  return true;
}

export function trustReleaseJobs(app: FastifyInstance): Record<string, JobKind<ReleaseNeededPayload>> {
  return {
    [TRUST_RELEASE_NEEDED_JOB]: {
      maxAttempts: 10,
      retryDelayMs: 30_000,
      async run({ deliveryId, recipient }, { signal }) {
        const inbound = await inboundConnectionOf(app, deliveryId);
        if (!inbound) return;
        await callPartner(app, inbound, TRUST_DELIVERY_PATHS.releaseNeeded, { type: 'releaseNeeded', transferId: inbound.transfer_uuid, recipient } satisfies TrustReleaseNeeded, { signal });
      },
      giveUp: async () => undefined,
    },
  };
}

/** `POST /api/2/trust/release-needed` on the sender's server: a recipient of a transfer over this connection waits; the sender is mailed as for a local one. */
export async function receiveReleaseNeeded(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, notice: TrustReleaseNeeded, rawBody: string): Promise<FastifyReply> {
  const { connection } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.releaseNeeded, rawBody);
  const transfer = await app.db.selectFrom('trust_transfers').selectAll().where('uuid', '=', notice.transferId).where('connection_id', '=', connection.id).executeTakeFirst();
  const email = notice.recipient.toLowerCase();
  if (!transfer || !(JSON.parse(transfer.recipients) as string[]).includes(email)) return refuse(app, connection.uuid, 'unknownTransfer', 'No such transfer to this recipient over this connection');
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', transfer.delivery_id).executeTakeFirstOrThrow();
  const sender = await app.users.findById(delivery.sender_id);
  if (sender && delivery.status === 'sent') await mailReleaseNeeded(app, sender, delivery, email, request.log);
  return sendSigned(app, reply, connection, 200, { type: 'ok' });
}
