// Stage 1: drafts — create and change, checked against the SPEC §5 rules like a send.
import { randomUUID } from 'node:crypto';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS, type SecurityLevel } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import type { UserRow } from '../users/users-repository';
import { activity, findDelivery, ownDraft, type DeliveryRow } from './records';
import { checkMessage, checkNotBanned, isE2eLevel, parseList, resolveSecurityLevel, resolveValidityDays } from './rules';
import { checkSenderMayReach, senderSendConfig } from './senders';
import { encryptsMessage } from '@shared/contract/security-levels';

export interface CreateInput {
  recipients: string[];
  additionalRecipients: string[];
  subject: string;
  body: string;
  validityDays?: number | null | undefined;
  securityLevel?: SecurityLevel | undefined;
  language?: Language | undefined;
  /** The send mails nobody; the recipients find it in their inbox (the submit box's notification setting). */
  quiet?: boolean | undefined;
}

/** Banned recipients, then who this sender may reach (senders.ts: reply only, licence, invitations). */
export async function checkAddresses(app: FastifyInstance, sender: UserRow, addresses: readonly string[]): Promise<void> {
  checkNotBanned(addresses, parseList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients)));
  await checkSenderMayReach(app, sender, addresses);
}

function recipientRows(deliveryId: number, recipients: string[], additional: string[], now: number) {
  return [...recipients.map((email) => ({ email, kind: 'recipient' })), ...additional.map((email) => ({ email, kind: 'additional' }))].map((r) => ({
    uuid: randomUUID(),
    delivery_id: deliveryId,
    email: r.email,
    kind: r.kind,
    token_hash: null,
    notified_at: null,
    downloaded_at: null,
    decrypted_at: null,
    removed_at: null,
    created_at: now,
  }));
}

export async function createDraft({ app, user: sender }: RequestContext, input: CreateInput): Promise<DeliveryRow> {
  const config = await senderSendConfig(app, sender);
  const level = resolveSecurityLevel(input.securityLevel, config);
  const { recipients, additional } = checkMessage(input, encryptsMessage(level));
  await checkAddresses(app, sender, [...recipients, ...additional]);
  const validityDays = resolveValidityDays(input.validityDays, config);
  const now = Date.now();
  return app.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('deliveries')
      .values({
        uuid: randomUUID(),
        sender_id: sender.id,
        status: 'draft',
        subject: input.subject.trim(),
        body: input.body,
        security_level: level,
        language: input.language ?? reduceLanguage(sender.language),
        validity_days: validityDays,
        expires_at: null,
        review_state: 'notReviewed',
        manifest: null,
        created_at: now,
        sent_at: null,
        deleted_at: null,
        purged_at: null,
        quiet: input.quiet ? 1 : 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('delivery_recipients').values(recipientRows(inserted.id, recipients, additional, now)).execute();
    await activity(trx, inserted.id, 'created', { actor: sender.email });
    return (await trx.selectFrom('deliveries').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow()) as DeliveryRow;
  });
}

/** Changes a draft: the given fields over the stored ones, checked as a whole like a new draft. */
export async function updateDraft({ app, user: sender }: RequestContext, deliveryUuid: string, input: Partial<CreateInput>): Promise<DeliveryRow> {
  const draft = await ownDraft(app.db, sender, deliveryUuid);
  const config = await senderSendConfig(app, sender);
  const stored = await app.db.selectFrom('delivery_recipients').select(['email', 'kind']).where('delivery_id', '=', draft.id).orderBy('id').execute();
  const merged = {
    recipients: input.recipients ?? stored.filter((r) => r.kind === 'recipient').map((r) => r.email),
    additionalRecipients: input.additionalRecipients ?? stored.filter((r) => r.kind === 'additional').map((r) => r.email),
    subject: input.subject ?? draft.subject,
    body: input.body ?? draft.body,
  };
  const level = resolveSecurityLevel(input.securityLevel ?? draft.security_level, config);
  const { recipients, additional } = checkMessage(merged, encryptsMessage(level));
  await checkAddresses(app, sender, [...recipients, ...additional]);
  if (isE2eLevel(level) !== isE2eLevel(draft.security_level)) {
    // Files already announced are plain or ciphertext; they cannot change sides.
    const files = await app.db.selectFrom('delivery_files').select('id').where('delivery_id', '=', draft.id).executeTakeFirst();
    if (files) throw badRequest('Remove the attached files before switching between encrypted and plain levels', { field: 'securityLevel', reason: 'filesAttached' });
  }
  const validityDays = resolveValidityDays(input.validityDays !== undefined ? input.validityDays : (draft.validity_days ?? undefined), config);
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('deliveries')
      .set({
        subject: merged.subject.trim(),
        body: merged.body,
        security_level: level,
        validity_days: validityDays,
        language: input.language ?? draft.language,
      })
      .where('id', '=', draft.id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('The delivery was sent already; it cannot change');
    if (input.recipients !== undefined || input.additionalRecipients !== undefined) {
      await trx.deleteFrom('delivery_recipients').where('delivery_id', '=', draft.id).execute();
      await trx.insertInto('delivery_recipients').values(recipientRows(draft.id, recipients, additional, now)).execute();
    }
  });
  return (await findDelivery(app.db, draft.uuid))!;
}
