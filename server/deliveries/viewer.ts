// Who is looking at a delivery: sender, recipient or level-1 link holder — or the refusal.
import { type Kysely } from 'kysely';
import { authenticationRequired, notFound } from '../core/http-error';
import type { Database } from '../db/schema';
import type { UserRow } from '../users/users-repository';
import { findDelivery, hashToken, type Viewer } from './records';
import { assertShareProof } from './share-proof';
import { opensByLink } from '@shared/contract/security-levels';

/** What a caller shows to see a delivery: a session's user, a level-1 link token, the email prompt's proof. */
export interface ViewerCredentials {
  user: UserRow | null;
  token?: string | undefined;
  proof?: string | undefined;
}

/**
 * Who is looking at a delivery, or the refusal: a valid level-1 token without the email prompt's
 * proof → 403 `emailConfirmationRequired`; anonymous without a token, or anonymous
 * on a level-2 delivery → 401 (sign in); a wrong or foreign token on a level-1 delivery,
 * another user, a draft of someone else → 404, so nobody learns that a delivery exists.
 */
export async function resolveViewer(
  db: Kysely<Database>,
  deliveryUuid: string,
  { user, token, proof }: ViewerCredentials,
): Promise<Viewer> {
  if (!user && !token) throw authenticationRequired();
  const delivery = await findDelivery(db, deliveryUuid);
  if (!delivery || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (user && delivery.sender_id === user.id) return { kind: 'sender', delivery };
  if (delivery.status !== 'sent') throw notFound('Delivery not found');
  if (user) {
    const recipient = await db
      .selectFrom('delivery_recipients')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .where('email', '=', user.email.toLowerCase())
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (recipient) return { kind: 'recipient', delivery, recipient };
  }
  if (token && opensByLink(delivery.security_level)) {
    const recipient = await db
      .selectFrom('delivery_recipients')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (recipient) {
      // The token proves the link, the email prompt's proof the address (share-proof.ts).
      await assertShareProof(db, recipient.id, proof);
      return { kind: 'token', delivery, recipient };
    }
    // A wrong or foreign token on a link delivery: the link is invalid, signing in would not help.
    if (!user) throw notFound('Delivery not found');
  }
  // Level 2 without a session: sign in first.
  if (!user) throw authenticationRequired();
  throw notFound('Delivery not found');
}
