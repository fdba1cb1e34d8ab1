// Reading one delivery: its detail, its activity log; deleting (sender) or removing it (recipient).
import { reduceLanguage } from '@shared/contract/constants';
import { type ActivityEntry, type DeliveryDetail, type DeliveryRecipient, type DeliverySummary } from '@shared/contract/deliveries';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import type { FastifyInstance } from 'fastify';
import { type Kysely } from 'kysely';
import { notFound } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import type { Database } from '../db/schema';
import type { UserRow } from '../users/users-repository';
import { dropDescriptors, e2eAccessOf, releasePendingOf } from './e2e-keys';
import { activity, deliveryPrefix, displayName, findDelivery, isRegisteredRecipient, timeStateOf, toWireFile, usersByEmail, type DeliveryRow, type FileRow, type RecipientRow, type Viewer } from './records';
import { releaseStoredFiles } from './stored-files';
import { reviewAllowsAccess } from '../virus-scan/review-policy';
import { isE2eLevel } from './rules';
import { resolveViewer } from './viewer';

export async function fileTotals(db: Kysely<Database>, deliveryIds: number[], committedOnly: boolean) {
  const totals = new Map<number, { count: number; size: number }>();
  if (deliveryIds.length === 0) return totals;
  let query = db
    .selectFrom('delivery_files')
    .select((eb) => ['delivery_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
    .where('delivery_id', 'in', deliveryIds)
    .groupBy('delivery_id');
  if (committedOnly) query = query.where('status', '=', 'committed');
  for (const row of await query.execute()) totals.set(row.delivery_id, { count: Number(row.n), size: Number(row.bytes) });
  return totals;
}

export function summaryOf(delivery: DeliveryRow, sender: Pick<UserRow, 'first_name' | 'last_name' | 'email'>, totals: { count: number; size: number } | undefined, downloaded: boolean): DeliverySummary {
  return {
    deliveryUuid: delivery.uuid,
    status: delivery.status as DeliverySummary['status'],
    sender: { email: sender.email, name: displayName(sender) },
    subject: delivery.subject,
    securityLevel: delivery.security_level,
    createdAt: delivery.created_at,
    sentAt: delivery.sent_at,
    expiresAt: delivery.expires_at,
    validityDays: delivery.validity_days,
    timeState: delivery.status === 'draft' ? (delivery.validity_days === null ? 'permanent' : 'valid') : timeStateOf(delivery),
    reviewState: delivery.review_state as DeliverySummary['reviewState'],
    attachmentsAvailable: reviewAllowsAccess(delivery.review_state) && delivery.purged_at === null && (delivery.status === 'draft' || timeStateOf(delivery) !== 'expired'),
    fileCount: totals?.count ?? 0,
    totalSize: totals?.size ?? 0,
    downloaded,
  };
}

/**
 * Unregistered recipients whose signup needs an SMS code (`kuvert.delivery.signup.requireSms`)
 * and for whom the sender gave no phone number yet (the Sent alert of SPEC §2).
 */
async function phoneNumbersMissing(app: FastifyInstance, unregistered: readonly RecipientRow[]): Promise<Set<number>> {
  if (unregistered.length === 0 || (await app.settings.get<boolean>(EXTERNAL_SETTING_KEYS.signupRequiresSms)) !== true) return new Set();
  const ids = unregistered.map((r) => r.id);
  const withPhone = await app.db.selectFrom('delivery_signups').select('recipient_id').where('recipient_id', 'in', ids).where('phone_number', 'is not', null).execute();
  const have = new Set(withPhone.map((row) => row.recipient_id));
  return new Set(ids.filter((id) => !have.has(id)));
}

/** A level 3/4 form submission names its form (issue 33 §2; the forms feature answers through `deliveryHooks`). */
async function fromFormOf(app: FastifyInstance, delivery: DeliveryRow): Promise<{ fromForm?: { name: string } }> {
  const form = await app.deliveryHooks.fromForm(delivery);
  return form ? { fromForm: form } : {};
}

export async function deliveryDetail(app: FastifyInstance, viewer: Viewer): Promise<DeliveryDetail> {
  const { delivery } = viewer;
  const db = app.db;
  const sender = (await db.selectFrom('users').selectAll().where('id', '=', delivery.sender_id).executeTakeFirstOrThrow()) as UserRow;
  let filesQuery = db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery.id).orderBy('id');
  if (viewer.kind !== 'sender') filesQuery = filesQuery.where('status', '=', 'committed');
  const files = (await filesQuery.execute()) as FileRow[];
  const all = (await db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).orderBy('id').execute()) as RecipientRow[];
  const visible = viewer.kind === 'sender' ? all : all.filter((r) => r.kind === 'recipient' || r.id === viewer.recipient.id);
  const registered = await usersByEmail(db, visible.map((r) => r.email));
  const recipients: DeliveryRecipient[] = visible.map((r) => {
    // Other recipients' progress is the sender's business only.
    const own = viewer.kind === 'sender' || r.id === (viewer as { recipient: RecipientRow }).recipient.id;
    return {
      shareUuid: own ? r.uuid : '',
      email: r.email,
      kind: r.kind as DeliveryRecipient['kind'],
      registered: isRegisteredRecipient(registered.get(r.email)),
      downloadedAt: own ? r.downloaded_at : null,
      decryptedAt: own ? r.decrypted_at : null,
      notifiedAt: own ? r.notified_at : null,
    };
  });
  const downloaded = viewer.kind === 'sender' ? all.length > 0 && all.every((r) => r.downloaded_at !== null) : viewer.recipient.downloaded_at !== null;
  const totals = { count: files.length, size: files.reduce((s, f) => s + Number(f.size), 0) };
  const e2e = isE2eLevel(delivery.security_level);
  if (e2e && viewer.kind === 'sender' && delivery.status === 'sent') {
    const pending = await releasePendingOf(app, delivery, visible);
    for (const [i, r] of visible.entries()) recipients[i]!.releasePending = pending.has(r.id);
  }
  // The sender's browser checks its pins by user id (verified badges, issue 12 §4).
  if (e2e && viewer.kind === 'sender') for (const [i, r] of visible.entries()) if (registered.has(r.email)) recipients[i]!.userUuid = registered.get(r.email)!.uuid;
  if (viewer.kind === 'sender') {
    const missing = await phoneNumbersMissing(app, visible.filter((r) => !registered.has(r.email)));
    for (const [i, r] of visible.entries()) recipients[i]!.phoneNumberMissing = missing.has(r.id);
    // Recipients a trust-network partner serves: which server, and whether it has the delivery yet.
    const partners = await app.deliveryHooks.partners.serverStates(delivery.id);
    for (const [i, r] of visible.entries()) if (partners.has(r.email)) recipients[i]!.partnerServer = partners.get(r.email)!;
  }
  return {
    ...summaryOf(delivery, sender, totals, downloaded),
    body: delivery.body,
    language: reduceLanguage(delivery.language),
    files: files.map(toWireFile),
    recipients,
    viewer: viewer.kind,
    ...(e2e && viewer.kind === 'recipient' ? { e2eAccess: await e2eAccessOf(app, delivery, viewer.recipient) } : {}),
    ...(e2e ? await fromFormOf(app, delivery) : {}),
  };
}

/** The sender deletes for everyone (bytes removed); a recipient removes it from their inbox. */
export async function deleteDelivery({ app, user }: RequestContext, deliveryUuid: string): Promise<void> {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (delivery.sender_id === user.id) {
    await app.db.transaction().execute(async (trx) => {
      await trx.updateTable('deliveries').set({ status: 'deleted', deleted_at: Date.now() }).where('id', '=', delivery.id).execute();
      await releaseStoredFiles(trx, { deliveryId: delivery.id });
      await trx.updateTable('delivery_recipients').set({ listed_at: null }).where('delivery_id', '=', delivery.id).execute();
    });
    await activity(app.db, delivery.id, 'deleted', { actor: user.email });
    await dropDescriptors(app, delivery.uuid);
    // After the row: a crash here leaves orphaned bytes (swept later), never a visible half-deleted delivery.
    await app.blobs.deletePrefix(deliveryPrefix(delivery.uuid));
    return;
  }
  if (delivery.status !== 'sent') throw notFound('Delivery not found');
  const updated = await app.db
    .updateTable('delivery_recipients')
    .set({ removed_at: Date.now(), listed_at: null })
    .where('delivery_id', '=', delivery.id)
    .where('email', '=', user.email.toLowerCase())
    .where('removed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw notFound('Delivery not found');
  await activity(app.db, delivery.id, 'removedFromInbox', { actor: user.email, recipientId: updated.id });
}

export async function activityLog({ app, user }: RequestContext, deliveryUuid: string): Promise<ActivityEntry[]> {
  const viewer = await resolveViewer(app.db, deliveryUuid, { user });
  let query = app.db.selectFrom('delivery_activity').selectAll().where('delivery_id', '=', viewer.delivery.id).orderBy('id');
  if (viewer.kind !== 'sender') {
    const own = viewer.recipient.id;
    query = query.where((eb) => eb.or([eb('recipient_id', 'is', null), eb('recipient_id', '=', own)])).where('kind', 'in', ['sent', 'notified', 'downloaded', 'removedFromInbox', 'released']);
  }
  return (await query.execute()).map((a) => ({ at: a.created_at, kind: a.kind as ActivityEntry['kind'], actor: a.actor, detail: a.detail }));
}
