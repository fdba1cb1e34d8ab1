import { createHash, randomBytes } from 'node:crypto';
import { API_BASE } from '@shared/contract/constants';
import { DELIVERY_PATHS, EMAIL_CONFIRMATION_REQUIRED, SHARE_PROOF_COOKIE, SHARE_PROOF_TTL_MS } from '@shared/contract/deliveries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { cookiesNeedSecure } from '../config';
import { HttpError } from '../core/http-error';
import type { Database } from '../db/schema';

/**
 * The level-1 email prompt's proof (contract: shared/contract/deliveries.ts). Without it the link
 * token alone would open the delivery and the prompt would be a UI gate only. The proof is a random
 * cookie value bound to one share; only its SHA-256 is stored. The cookie's path is the delivery's
 * API path, so the browser sends it to nothing else.
 */
const PROOF_BYTES = 32;
const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export async function issueShareProof(
  request: FastifyRequest,
  reply: FastifyReply,
  share: { recipientId: number; deliveryUuid: string },
): Promise<void> {
  const db = request.server.db;
  const now = Date.now();
  const value = randomBytes(PROOF_BYTES).toString('base64url');
  // Expired proofs are useless; dropping them here keeps the table small without another timer.
  await db.deleteFrom('share_proofs').where('expires_at', '<=', now).execute();
  await db.insertInto('share_proofs').values({ hash: sha256Hex(value), recipient_id: share.recipientId, expires_at: now + SHARE_PROOF_TTL_MS }).execute();
  void reply.setCookie(SHARE_PROOF_COOKIE, value, {
    path: `${API_BASE}${DELIVERY_PATHS.one(share.deliveryUuid)}`,
    httpOnly: true,
    sameSite: 'strict',
    secure: cookiesNeedSecure(request.server.config.publicUrl),
    maxAge: Math.floor(SHARE_PROOF_TTL_MS / 1000),
  });
}

/** The proof cookie of a request, if any. */
export const shareProofOf = (request: Pick<FastifyRequest, 'cookies'>): string | undefined => request.cookies[SHARE_PROOF_COOKIE] || undefined;

/** Throws 403 `emailConfirmationRequired` unless `proof` is a live proof of this share. */
export async function assertShareProof(db: Kysely<Database>, recipientId: number, proof: string | undefined): Promise<void> {
  if (proof && proof.length <= 100) {
    const row = await db
      .selectFrom('share_proofs')
      .select('expires_at')
      .where('hash', '=', sha256Hex(proof))
      .where('recipient_id', '=', recipientId)
      .executeTakeFirst();
    if (row && Number(row.expires_at) > Date.now()) return;
  }
  throw new HttpError(403, 'AccessDeniedException', 'Please confirm your email address first', { reason: EMAIL_CONFIRMATION_REQUIRED });
}
