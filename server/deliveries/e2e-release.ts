// Levels 3/4: invitations to recipients without a key, and the sender's release to them.
import { reduceLanguage } from '@shared/contract/constants';
import { DELIVERY_WEB_LINKS, type NewDescriptor, type ReleaseList } from '@shared/contract/deliveries';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { badRequest, conflict, notFound } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { ENCRYPTED_SUBJECT_PLACEHOLDER } from '../mail/delivery-templates';
import type { UserRow } from '../users/users-repository';
import { storeDescriptors, releasePendingOf, requireE2e, requiredFileIds } from './e2e-keys';
import { activity, displayName, findDelivery, timeStateOf, usersByEmail, type DeliveryRow, type RecipientRow } from './records';
import { externalLinkFor } from './signups';
import { E2E_SECURITY_LEVELS } from '@shared/contract/security-levels';

/** Invitation mail to recipients without a key (levels 3/4). */
export async function e2eNotify(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipients: readonly RecipientRow[], log: FastifyBaseLogger): Promise<void> {
  if (recipients.length === 0) return;
  const users = await usersByEmail(app.db, recipients.map((r) => r.email));
  for (const r of recipients) {
    const user = users.get(r.email);
    const language = user ? reduceLanguage(user.language) : reduceLanguage(delivery.language);
    try {
      await app.mailer.send({
        to: r.email,
        template: 'e2eInvitation',
        language,
        data: {
          senderName: displayName(sender),
          senderEmail: sender.email,
          subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
          // Unregistered: the external path (email prompt → delivery signup), then passphrase and release.
          link: `${app.config.publicUrl}${(await externalLinkFor(app, delivery, r, { registered: user !== undefined, language, downloadToken: undefined })) ?? DELIVERY_WEB_LINKS.inbox(delivery.uuid)}`,
          registered: user !== undefined,
        },
      });
      await app.db.updateTable('delivery_recipients').set({ notified_at: Date.now() }).where('id', '=', r.id).execute();
      await activity(app.db, delivery.id, 'notified', { actor: r.email, recipientId: r.id, detail: 'releaseNeeded' });
    } catch (err) {
      log.error({ err, deliveryUuid: delivery.uuid }, 'invitation mail failed');
      await activity(app.db, delivery.id, 'notificationFailed', { actor: r.email, recipientId: r.id });
    }
  }
}

/** A sent E2E delivery of this sender that is still readable (release makes sense). */
async function releasableDelivery(app: FastifyInstance, sender: UserRow, deliveryUuid: string): Promise<DeliveryRow> {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.sender_id !== sender.id || delivery.status !== 'sent') throw notFound('Delivery not found');
  requireE2e(delivery);
  if (timeStateOf(delivery) === 'expired' || delivery.purged_at !== null) throw conflict('The delivery has expired');
  return delivery;
}

/** GET /deliveries/release: recipients with an active SecuPass but no copies, per sent delivery. */
export async function releaseList({ app, user: sender }: RequestContext): Promise<ReleaseList> {
  const deliveries = await app.db
    .selectFrom('deliveries')
    .selectAll()
    .where('sender_id', '=', sender.id)
    .where('status', '=', 'sent')
    .where('security_level', 'in', E2E_SECURITY_LEVELS)
    .where('purged_at', 'is', null)
    .orderBy('sent_at', 'desc')
    .execute();
  const items: ReleaseList['items'] = [];
  for (const delivery of deliveries as DeliveryRow[]) {
    if (timeStateOf(delivery) === 'expired') continue;
    const recipients = (await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).where('removed_at', 'is', null).execute()) as RecipientRow[];
    const pending = await releasePendingOf(app, delivery, recipients);
    const waiting = recipients.filter((r) => pending.has(r.id));
    if (waiting.length === 0) continue;
    const users = await usersByEmail(app.db, waiting.map((r) => r.email));
    const states = await app.secupass.statesOf([...users.values()].map((u) => u.id));
    for (const r of waiting) {
      const user = users.get(r.email);
      if (!user || states.get(user.id) !== 'active') continue;
      items.push({
        deliveryUuid: delivery.uuid,
        subject: delivery.subject,
        securityLevel: delivery.security_level,
        sentAt: delivery.sent_at,
        recipient: { email: r.email, userUuid: user.uuid, keys: await app.secupass.publicKeysOf(user.id) },
      });
    }
  }
  // A trust-network partner's recipients who set a passphrase there since (asked through the connection).
  items.push(...(await app.deliveryHooks.partners.releaseItems(sender)));
  return { items };
}

/** POST …/release: the sender re-wrapped every key of the delivery to one waiting recipient's key. */
export async function releaseDelivery({ app, user: sender, log }: RequestContext, deliveryUuid: string, descriptors: readonly NewDescriptor[]): Promise<void> {
  const delivery = await releasableDelivery(app, sender, deliveryUuid);
  // A recipient a trust-network partner serves: the copies go to the partner, which mails them.
  if (await app.deliveryHooks.partners.release(sender, delivery, descriptors)) return;
  const recipients = (await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute()) as RecipientRow[];
  const pending = await releasePendingOf(app, delivery, recipients);
  const users = await usersByEmail(app.db, recipients.filter((r) => pending.has(r.id)).map((r) => r.email));
  const waitingIds = new Set([...users.values()].map((u) => u.id));
  const uuids = new Set(descriptors.map((d) => d.recipientUserUuid));
  if (uuids.size !== 1) throw badRequest('A release is for one recipient at a time', { field: 'descriptors', reason: 'oneRecipient' });
  const needed = await requiredFileIds(app, delivery);
  const target = [...users.values()].find((u) => uuids.has(u.uuid));
  if (target) {
    const keyIds = new Set(descriptors.map((d) => d.recipientKeyId));
    const complete = [...keyIds].every((keyId) => needed.every((f) => descriptors.some((d) => d.recipientKeyId === keyId && d.fileId === f)));
    if (!complete) throw badRequest('A release needs a copy of every file and of the manifest', { field: 'descriptors', reason: 'accessDescriptorsMissing' });
  }
  // storeDescriptors refuses anyone who is not waiting (incl. the sender and released recipients).
  await storeDescriptors(app, delivery, sender, descriptors, waitingIds);
  const recipient = recipients.find((r) => r.email === target!.email.toLowerCase())!;
  await activity(app.db, delivery.id, 'released', { actor: sender.email, recipientId: recipient.id, detail: recipient.email });
  const language = reduceLanguage(target!.language);
  await app.mailer
    .send({
      to: recipient.email,
      template: 'deliveryReleased',
      language,
      data: {
        senderName: displayName(sender),
        subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
        link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.inbox(delivery.uuid)}`,
      },
    })
    .catch((err: unknown) => log.error({ err, deliveryUuid: delivery.uuid }, 'release mail failed'));
}

/**
 * After a user set a SecuPass: every sender of a sent E2E delivery waiting for this user is
 * mailed that a release is needed (SPEC §4: the recipient waits, the sender releases).
 */
export async function notifyReleaseNeeded(app: FastifyInstance, user: UserRow, log: FastifyBaseLogger): Promise<void> {
  const rows = await app.db
    .selectFrom('delivery_recipients as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .selectAll('d')
    .select(['r.id as r_id'])
    .where('r.email', '=', user.email.toLowerCase())
    .where('r.removed_at', 'is', null)
    .where('d.status', '=', 'sent')
    .where('d.security_level', 'in', E2E_SECURITY_LEVELS)
    .where('d.purged_at', 'is', null)
    .execute();
  for (const row of rows) {
    const delivery = row as unknown as DeliveryRow;
    if (timeStateOf(delivery) === 'expired') continue;
    // Came through a trust connection: the sender's server is told, and mails its sender.
    if (await app.deliveryHooks.partners.releaseNeeded(delivery, user.email)) continue;
    const sender = await app.users.findById(delivery.sender_id);
    if (sender) await mailReleaseNeeded(app, sender, delivery, user.email, log);
  }
}

/** The sender is told a recipient waits for a release (also for a trust partner's recipient, trust-networks/release.ts). */
export async function mailReleaseNeeded(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipientEmail: string, log: FastifyBaseLogger): Promise<void> {
  const language = reduceLanguage(sender.language);
  await app.mailer
    .send({
      to: sender.email,
      template: 'releaseNeeded',
      language,
      data: {
        recipient: recipientEmail,
        subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
        link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.release(language)}`,
      },
    })
    .catch((err: unknown) => log.error({ err, deliveryUuid: delivery.uuid }, 'release-needed mail failed'));
}
