// The per-share signup rows (table `delivery_signups`): the signup link token the notification
// mails carry, the sender's phone number and the SMS code. Records only; the external recipient's
// path (external/) builds on them.
import  { type Language } from '@shared/contract/constants';
import { EXTERNAL_WEB_LINKS } from '@shared/contract/external';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { DeliveriesTable, DeliveryRecipientsTable, DeliverySignupsTable } from './tables';
import { opensByLink } from '@shared/contract/security-levels';
import { linkTokenHash, newLinkToken } from '../security/link-tokens';

type SignupRow = Selectable<DeliverySignupsTable>;


export async function signupRow(app: FastifyInstance, recipientId: number): Promise<SignupRow | undefined> {
  return app.db.selectFrom('delivery_signups').selectAll().where('recipient_id', '=', recipientId).executeTakeFirst();
}

export async function upsertSignup(app: FastifyInstance, recipientId: number, changes: Partial<Omit<SignupRow, 'recipient_id'>>): Promise<void> {
  const now = Date.now();
  await app.db
    .insertInto('delivery_signups')
    .values({
      recipient_id: recipientId,
      phone_number: null,
      token_hash: null,
      code_hash: null,
      code_salt: null,
      code_attempts: 0,
      code_sent_at: null,
      code_expires_at: null,
      ...changes,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('recipient_id').doUpdateSet({ ...changes, updated_at: now }))
    .execute();
}

/**
 * The mail's link for a recipient, or null when the ordinary link fits (a registered recipient of
 * a level ≥ 2 delivery signs in and finds it in the inbox). Level 1: the email prompt with the
 * download token; higher levels, unregistered: the email prompt with a fresh signup token
 * (only its hash is stored, so a resent mail replaces the older link).
 */
export async function externalLinkFor(
  app: FastifyInstance,
  delivery: Pick<Selectable<DeliveriesTable>, 'security_level'>,
  recipient: Pick<Selectable<DeliveryRecipientsTable>, 'id' | 'uuid'>,
  options: { registered: boolean; language: Language; downloadToken: string | undefined },
): Promise<string | null> {
  if (opensByLink(delivery.security_level)) {
    return options.downloadToken ? EXTERNAL_WEB_LINKS.emailPrompt(options.language, recipient.uuid, options.downloadToken) : null;
  }
  if (options.registered) return null;
  const token = newLinkToken();
  await upsertSignup(app, recipient.id, { token_hash: linkTokenHash(token) });
  return EXTERNAL_WEB_LINKS.emailPrompt(options.language, recipient.uuid, token);
}
