// Stage 2: sending — the rules once more, the sent state, and the recipients' mails (also resent).
import { retryWhileDatabaseUnavailable } from '../db/availability';
import { reduceLanguage } from '@shared/contract/constants';
import { DAY_MS } from '@shared/contract/reports';
import { DELIVERY_WEB_LINKS } from '@shared/contract/deliveries';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { badRequest, conflict, HttpError, notFound } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { ENCRYPTED_SUBJECT_PLACEHOLDER } from '../mail/delivery-templates';
import type { UserRow } from '../users/users-repository';
import { recordSenderDay } from '../reports/sender-days';
import { checkAddresses } from './drafts';
import { e2eSendCheck } from './e2e-keys';
import { e2eNotify } from './e2e-release';
import { activity, displayName, findDelivery, hashToken, isRegisteredRecipient, newToken, ownDraft, timeStateOf, usersByEmail, type DeliveryRow, type RecipientRow } from './records';
import { queueDeliveryScan, reviewAllowsAccess, scanApplies } from '../virus-scan/review-policy';
import { checkContent, checkMessage, isE2eLevel, resolveSecurityLevel, resolveValidityDays } from './rules';
import { senderSendConfig } from './senders';
import { externalLinkFor } from './signups';
import { encryptsMessage, opensByLink } from '@shared/contract/security-levels';

/** Checks every §5 rule again (settings may have changed since the draft), marks the delivery sent and mails the recipients. */
export async function sendDelivery({ app, user: sender, log }: RequestContext, deliveryUuid: string): Promise<DeliveryRow> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  for (const hook of app.deliveryHooks.beforeSend) await hook({ app, user: sender, log }, delivery);
  const config = await senderSendConfig(app, sender);
  const recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute();
  checkMessage(
    {
      recipients: recipients.filter((r) => r.kind === 'recipient').map((r) => r.email),
      additionalRecipients: recipients.filter((r) => r.kind === 'additional').map((r) => r.email),
      subject: delivery.subject,
      body: delivery.body,
    },
    encryptsMessage(delivery.security_level),
  );
  await checkAddresses(app, sender, recipients.map((r) => r.email));
  resolveSecurityLevel(delivery.security_level, config);
  const validityDays = resolveValidityDays(delivery.validity_days ?? (config.deliveryCleanupEnabled ? undefined : null), config);
  const files = await app.db.selectFrom('delivery_files').select(['name', 'status']).where('delivery_id', '=', delivery.id).execute();
  const uploading = files.filter((f) => f.status !== 'committed');
  if (uploading.length > 0) {
    throw badRequest('Some files are not uploaded completely', { reason: 'uploadIncomplete', files: uploading.map((f) => f.name) });
  }
  // Level 4: the message is inside the encrypted manifest, which e2eSendCheck requires.
  checkContent(files.length, delivery.body, encryptsMessage(delivery.security_level));
  const pendingRelease = isE2eLevel(delivery.security_level) ? await e2eSendCheck(app, sender, delivery, recipients) : new Set<number>();

  const now = Date.now();
  const tokens = new Map<number, string>();
  // With a scanner, level 1/2 attachments wait for a clean scan: no links, no mails until then (virus-scan.ts).
  const scan = files.length > 0 && scanApplies(app, delivery);
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('deliveries')
      .set({
        status: 'sent',
        sent_at: now,
        // The reports' day bucket and recipient count (migration 0025, server/reports).
        sent_day: Math.floor(now / DAY_MS),
        recipient_count: recipients.length,
        validity_days: validityDays,
        expires_at: validityDays === null ? null : now + validityDays * 86_400_000,
        ...(scan ? { review_state: 'inProgress' } : {}),
      })
      .where('id', '=', delivery.id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('The delivery was sent already');
    await recordSenderDay(trx, delivery.sender_id, now);
    // Into every recipient's inbox (the inbox walks this column, migration 0015).
    await trx.updateTable('delivery_recipients').set({ listed_at: now }).where('delivery_id', '=', delivery.id).where('removed_at', 'is', null).execute();
    if (scan) {
      await queueDeliveryScan(trx, delivery.id);
    } else if (opensByLink(delivery.security_level)) {
      for (const r of recipients) {
        const token = newToken();
        tokens.set(r.id, token);
        await trx.updateTable('delivery_recipients').set({ token_hash: hashToken(token) }).where('id', '=', r.id).execute();
      }
    }
    await activity(trx, delivery.id, 'sent', { actor: sender.email });
    // Features above deliveries that act on a send (Flows' hand-off), in this transaction (services.ts).
    for (const hook of app.deliveryHooks.sent) await hook(trx, delivery);
  });
  if (app.deliveryHooks.sent.length > 0) app.jobs.kick();
  const sent = (await findDelivery(app.db, delivery.uuid))!;
  // A scanned delivery notifies once its scan is clean (review.ts); E2E levels are never scanned.
  if (scan) {
    app.jobs.kick();
    return sent;
  }
  const withAccess = recipients.filter((r) => !pendingRelease.has(r.id));
  if (sent.quiet === 1) return sent;
  await notifyRecipients(app, sender, sent, withAccess, tokens, files.length, log);
  // Levels 3/4: recipients without a key are invited (passphrase first, then the sender's release).
  const partnerServed = await app.deliveryHooks.partners.servedRecipients(sent.id);
  await e2eNotify(app, sender, sent, recipients.filter((r) => pendingRelease.has(r.id) && !partnerServed.has(r.email)), log);
  return sent;
}

export async function notifyRecipients(
  app: FastifyInstance,
  sender: UserRow,
  delivery: DeliveryRow,
  recipients: RecipientRow[],
  tokens: Map<number, string>,
  fileCount: number,
  log: FastifyBaseLogger,
): Promise<string[]> {
  // Addresses a trust-network partner serves get that server's mail, never a link from this one.
  const partnerServed = await app.deliveryHooks.partners.servedRecipients(delivery.id);
  recipients = recipients.filter((r) => !partnerServed.has(r.email));
  const registered = await usersByEmail(app.db, recipients.map((r) => r.email));
  const base = app.config.publicUrl;
  const expiresOn = delivery.expires_at === null ? null : new Date(delivery.expires_at).toISOString().slice(0, 10);
  const results = await Promise.allSettled(
    recipients.map(async (r) => {
      const user = registered.get(r.email);
      const language = user ? reduceLanguage(user.language) : reduceLanguage(delivery.language);
      const token = tokens.get(r.id);
      // Link holders (level 1, unregistered recipients of higher levels) start at the email prompt.
      // An account whose address never proved itself is no owner yet: the mail carries the signup link.
      const external = await externalLinkFor(app, delivery, r, { registered: isRegisteredRecipient(user), language, downloadToken: token });
      const link = `${base}${external ?? DELIVERY_WEB_LINKS.inbox(delivery.uuid)}`;
      const subject = (await app.deliveryHooks.mailSubject(delivery, language)) ?? (delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language]);
      await app.mailer.send({
        to: r.email,
        template: 'newDelivery',
        language,
        data: {
          senderName: displayName(sender),
          senderEmail: sender.email,
          subject,
          link,
          level: delivery.security_level,
          signup: !opensByLink(delivery.security_level) && external !== null,
          fileCount,
          expiresOn,
        },
      });
      return r;
    }),
  );
  const notified: string[] = [];
  const now = Date.now();
  for (const [i, result] of results.entries()) {
    const r = recipients[i]!;
    if (result.status === 'fulfilled') {
      notified.push(r.email);
      // The mail is out: its record waits out a database outage (a dropped connection, a restart)
      // instead of failing the notice, whose job would then mail again (issue 29: jobs once).
      await retryWhileDatabaseUnavailable('recording a sent notice', async () => {
        await app.db.updateTable('delivery_recipients').set({ notified_at: now }).where('id', '=', r.id).execute();
        await activity(app.db, delivery.id, 'notified', { actor: r.email, recipientId: r.id });
      }, log);
    } else {
      log.error({ err: result.reason, deliveryUuid: delivery.uuid }, 'delivery notification failed');
      await activity(app.db, delivery.id, 'notificationFailed', { actor: r.email, recipientId: r.id });
    }
  }
  return notified;
}

/** Mails the recipients again (or the one named). Level 1 links get a fresh token: only hashes are stored. */
export async function resendNotification({ app, user: sender, log }: RequestContext, deliveryUuid: string, shareUuid: string | undefined) {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.sender_id !== sender.id || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (delivery.status !== 'sent') throw conflict('Only a sent delivery can be notified again');
  if (timeStateOf(delivery) === 'expired') throw conflict('The delivery has expired');
  if (!reviewAllowsAccess(delivery.review_state)) {
    throw new HttpError(409, 'ConflictException', 'The attachments are being checked or are blocked; nobody is notified', { reviewState: delivery.review_state });
  }
  let recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute();
  if (shareUuid !== undefined) {
    recipients = recipients.filter((r) => r.uuid === shareUuid);
    if (recipients.length === 0) throw notFound('Recipient not found');
  }
  return { notified: await notifyWithFreshTokens(app, sender, delivery, recipients, log) };
}

/** Mails the given recipients; level 1 links get fresh tokens (only hashes are stored, so older links stop working). */
export async function notifyWithFreshTokens(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipients: RecipientRow[], log: FastifyBaseLogger): Promise<string[]> {
  const tokens = new Map<number, string>();
  if (opensByLink(delivery.security_level)) {
    for (const r of recipients) {
      const token = newToken();
      tokens.set(r.id, token);
      await app.db.updateTable('delivery_recipients').set({ token_hash: hashToken(token) }).where('id', '=', r.id).execute();
    }
  }
  const fileCount = await app.db
    .selectFrom('delivery_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('delivery_id', '=', delivery.id)
    .executeTakeFirstOrThrow();
  return notifyRecipients(app, sender, delivery, recipients, tokens, Number(fileCount.n), log);
}
