import type { SetSecuPassBody } from '@shared/contract/secupass';
import { isE2eLevel } from '@shared/contract/security-levels';
import { SUBMIT_BOX_ERRORS } from '@shared/contract/submit-box';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { secuPassBodyProblems } from '../secupass/blob-checks';
import { submitBoxError } from './boxes';
import { isSubmitterOnly } from '../users/submitter-accounts';

/**
 * Levels 3/4 of the submit box (shared/crypto/README.md "Submit box"). The partner has no account
 * and no keys, yet the E2E scheme wants a sender who signs the manifest and keeps its own key
 * copies. So the partner's browser makes a SecuPass for the submitter account with a random
 * passphrase it never keeps: the keys sign this one submission and are useless afterwards. The
 * server stores public keys and the wrapped blob as for anyone; a SecuPass the account had from an
 * earlier submission is reset first (its signing key stays as a retired key, so the owner can still
 * verify the older submissions).
 */
export async function putSubmitterKeys({ app, user: submitter }: RequestContext, deliveryUuid: string, body: SetSecuPassBody): Promise<void> {
  const delivery = await app.db.selectFrom('deliveries').select(['security_level', 'status', 'sender_id']).where('uuid', '=', deliveryUuid).executeTakeFirst();
  if (!delivery || delivery.sender_id !== submitter.id || delivery.status !== 'draft') throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketUsed, 'This submission was sent already');
  if (!isE2eLevel(delivery.security_level)) throw badRequest('Only encrypted submissions take keys', { reason: 'notEncrypted' });
  // Defence in depth: start refuses encrypted submissions for addresses with a real account.
  if (!isSubmitterOnly(submitter)) throw submitBoxError(409, SUBMIT_BOX_ERRORS.encryptedUnavailable, 'This address has an account: please sign in and send an encrypted delivery from it');
  const problems = secuPassBodyProblems(body);
  if (problems.length > 0) throw badRequest('Invalid SecuPass', { problems });
  await replaceSecuPass(app, submitter.id, body);
}

async function replaceSecuPass(app: FastifyInstance, userId: number, body: SetSecuPassBody): Promise<void> {
  if ((await app.secupass.set(userId, body)) !== 'active') return;
  await app.secupass.reset({ actorUserId: userId, subjectUserId: userId, audit: app.auditLog });
  if ((await app.secupass.set(userId, body)) === 'active') throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketUsed, 'Another upload of this submission is running');
}
