import { TRUST_PING_PATH, TRUST_SIGNATURE_ERROR, TRUST_SIGNATURE_WINDOW_SECONDS, type TrustPing } from '@shared/contract/trust-networks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, rateLimitExceeded } from '../core/http-error';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { privateKeyOf, type TrustConnectionRow } from './connections';
import { REQUEST_COMPONENTS, signAnswer, TrustRefusal, verifySigned } from './signatures';

/** A nonce is remembered this long past its signature's `created` (the window, and a minute's margin). */
const NONCE_KEEP_MS = TRUST_SIGNATURE_WINDOW_SECONDS * 1000 + 60_000;

/**
 * Refused calls one client address may have written to the audit log in the window; past it the
 * answer is 429 and nothing is written (the ping is public: anyone could otherwise flood the log).
 * A real partner refuses itself at most a few times per test.
 */
export const TRUST_REFUSALS_PER_IP = { limit: 30, windowMs: 10 * 60_000 };

/** The connection a partner's key id names: the live one, else a deleted one (revoked), else none. */
async function connectionOfPartnerKey(app: FastifyInstance, keyId: string): Promise<TrustConnectionRow | undefined> {
  const rows = await app.db.selectFrom('trust_connections').selectAll().where('partner_key_fingerprint', '=', keyId).execute();
  return rows.find((row) => row.deleted_at === null) ?? rows[0];
}

/**
 * Remembers a nonce of a verified call; false when it was seen before. In the database, so every
 * server behind the load balancer refuses the replay; expired nonces go on the way.
 */
async function rememberNonce(app: FastifyInstance, keyId: string, nonce: string, created: Date): Promise<boolean> {
  const now = Date.now();
  await app.db.deleteFrom('trust_nonces').where('expires_at', '<', now).execute();
  const result = await app.db
    .insertInto('trust_nonces')
    .values({ key_fingerprint: keyId, nonce, expires_at: Math.max(now, created.getTime()) + NONCE_KEEP_MS })
    .onConflict((oc) => oc.columns(['key_fingerprint', 'nonce']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/**
 * `POST /api/2/trust/ping` (docs/trust-networks.md): a partner's signed ping. Verified in this order:
 * a signature is there; its key id is the partner key of a live connection (else unknown or revoked);
 * `created` within the window; the signature over `@method`, `@target-uri` (this server's public URL
 * and the path) and `content-digest`; the digest over the body; the ping names our own key; the
 * nonce is new. Every refusal is written to the audit log and answered 401 `TrustSignatureException`
 * with `metadata.reason`. The answer is a pong signed by our own key of the connection.
 */
export async function answerPing(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, ping: TrustPing, rawBody: string): Promise<FastifyReply> {
  let row: TrustConnectionRow | undefined;
  let nonce: string;
  try {
    const verified = await verifySigned({ method: request.method, url: `${app.config.publicUrl}${TRUST_PING_PATH}`, headers: request.headers as Record<string, string | string[]> }, rawBody, REQUEST_COMPONENTS, async (keyId) => {
      row = await connectionOfPartnerKey(app, keyId);
      if (!row) throw new TrustRefusal('unknownKey', 'The key is not the partner key of any connection of this server', keyId);
      if (row.deleted_at !== null || row.partner_public_key === null) throw new TrustRefusal('revokedKey', 'The connection of this key has been deleted', keyId);
      return row.partner_public_key;
    });
    if (ping.to !== row!.own_key_fingerprint) throw new TrustRefusal('unknownKey', "The caller holds a key for this server that is not this connection's own key", verified.keyId);
    if (!(await rememberNonce(app, verified.keyId, verified.nonce, verified.created))) throw new TrustRefusal('replayed', 'This request was seen before (its nonce is used)', verified.keyId);
    nonce = verified.nonce;
  } catch (error) {
    if (!(error instanceof TrustRefusal)) throw error;
    const refusals = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.trustRefusalIp, request.ip, TRUST_REFUSALS_PER_IP);
    if (!refusals.allowed) throw rateLimitExceeded(refusals.retryAfterMs);
    await app.auditLog.record({
      actorUserId: null,
      action: 'trustNetwork.refused',
      subjectUserId: null,
      details: { reason: error.reason, keyId: error.keyId ?? null, connectionId: row?.uuid ?? null, ip: request.ip },
    });
    throw new HttpError(401, TRUST_SIGNATURE_ERROR, error.message, { reason: error.reason });
  }
  const connection = row!;
  const body = JSON.stringify({ type: 'pong', nonce });
  const headers = await signAnswer(200, body, { privateKey: privateKeyOf(app, connection), keyId: connection.own_key_fingerprint });
  return reply.code(200).headers(headers).send(body);
}
