import type { Readable } from 'node:stream';
import { TRUST_SIGNATURE_ERROR, TRUST_SIGNATURE_WINDOW_SECONDS } from '@shared/contract/trust-networks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, rateLimitExceeded } from '../core/http-error';
import { outboundPolicy, outboundRequest } from '../outbound/outbound-guard';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { privateKeyOf, type TrustConnectionRow } from './connections';
import { ANSWER_COMPONENTS, REQUEST_COMPONENTS, signAnswer, signRequest, TrustRefusal, verifySigned, type VerifiedSignature } from './signatures';

/** A nonce is remembered this long past its signature's `created` (the window, and a minute's margin). */
const NONCE_KEEP_MS = TRUST_SIGNATURE_WINDOW_SECONDS * 1000 + 60_000;

/**
 * Refused calls one client address may have written to the audit log in the window; past it the
 * answer is 429 and nothing is written (the partner endpoints are public: anyone could otherwise
 * flood the log). A real partner refuses itself at most a few times per test.
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

/** Writes a refusal to the audit log (within the per-address limit) and answers 401 with its reason. */
export async function refuseCall(app: FastifyInstance, request: FastifyRequest, error: TrustRefusal, row: TrustConnectionRow | undefined): Promise<never> {
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

/**
 * A partner's signed call to `path` (docs/trust-networks.md, "The receiver's checks"): a signature;
 * its key id the partner key of a live connection (else unknown or revoked); `created` in the window;
 * the signature over `@method`, `@target-uri` (this server's public URL and the path) and
 * `content-digest`; the digest over the body (a streamed body, `null`, is checked by the caller
 * while it arrives); `check` (the call's own condition); the nonce new. Every refusal is audited
 * and answered 401 `TrustSignatureException` with `metadata.reason`.
 */
export async function verifyPartnerCall(
  app: FastifyInstance,
  request: FastifyRequest,
  path: string,
  rawBody: string | null,
  check?: (row: TrustConnectionRow, verified: VerifiedSignature) => void,
): Promise<{ connection: TrustConnectionRow; verified: VerifiedSignature }> {
  let row: TrustConnectionRow | undefined;
  try {
    const verified = await verifySigned({ method: request.method, url: `${app.config.publicUrl}${path}`, headers: request.headers as Record<string, string | string[]> }, rawBody, REQUEST_COMPONENTS, async (keyId) => {
      row = await connectionOfPartnerKey(app, keyId);
      if (!row) throw new TrustRefusal('unknownKey', 'The key is not the partner key of any connection of this server', keyId);
      if (row.deleted_at !== null || row.partner_public_key === null) throw new TrustRefusal('revokedKey', 'The connection of this key has been deleted', keyId);
      return row.partner_public_key;
    });
    check?.(row!, verified);
    if (!(await rememberNonce(app, verified.keyId, verified.nonce, verified.created))) throw new TrustRefusal('replayed', 'This request was seen before (its nonce is used)', verified.keyId);
    return { connection: row!, verified };
  } catch (error) {
    if (!(error instanceof TrustRefusal)) throw error;
    return refuseCall(app, request, error, row);
  }
}

/** A JSON answer signed by our own key of the connection (`@status`, `content-digest`). */
export async function sendSigned(app: FastifyInstance, reply: FastifyReply, connection: TrustConnectionRow, status: number, answer: unknown): Promise<FastifyReply> {
  const body = JSON.stringify(answer);
  const headers = await signAnswer(status, body, { privateKey: privateKeyOf(app, connection), keyId: connection.own_key_fingerprint });
  return reply.code(status).headers(headers).send(body);
}

/** A partner's answer signed by exactly the partner key entered on this side (else the TrustRefusal). */
export async function verifyPartnerAnswer(connection: TrustConnectionRow, status: number, headers: Record<string, string | string[]>, body: string): Promise<void> {
  const partnerKey = connection.partner_public_key;
  await verifySigned({ status, headers }, body, ANSWER_COMPONENTS, async (keyId) => {
    if (partnerKey === null || keyId !== connection.partner_key_fingerprint) throw new TrustRefusal('unknownKey', 'The partner signed its answer with a key other than the partner key entered here', keyId);
    return partnerKey;
  });
}

/** How long a partner has to answer one call (a part of 8 MiB included). */
const CALL_TIMEOUT_MS = 120_000;
const ANSWER_MAX_BYTES = 1024 * 1024;

/** A stored part to PUT: its hash (signed as the content digest), size, and its bytes as a stream. */
export interface PartUpload {
  sha256: string;
  size: number;
  stream: () => Promise<Readable>;
}

/** A partner call that did not end in a verified 2xx answer; `status` when the partner answered. */
export class PartnerCallError extends Error {
  override readonly name = 'PartnerCallError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly answer: unknown = undefined,
  ) {
    super(message);
  }
}

/**
 * One signed call to the partner through the outbound guard: a JSON POST, or with `part` a PUT of
 * a stored part streamed from the blob store. A 2xx answer must be signed by the partner key
 * entered here; its JSON is returned. Anything else throws PartnerCallError.
 */
export async function callPartner(
  app: FastifyInstance,
  connection: TrustConnectionRow,
  path: string,
  body: unknown,
  options: { signal?: AbortSignal; part?: PartUpload } = {},
): Promise<unknown> {
  const partnerKey = connection.partner_public_key;
  if (partnerKey === null || connection.deleted_at !== null) throw new PartnerCallError('The connection has no partner key', null);
  const url = `${connection.partner_url}${path}`;
  const text = options.part ? '' : JSON.stringify(body);
  const { headers } = await signRequest(url, text, { privateKey: privateKeyOf(app, connection), keyId: connection.own_key_fingerprint }, options.part);
  const signal = AbortSignal.any([AbortSignal.timeout(CALL_TIMEOUT_MS), ...(options.signal ? [options.signal] : [])]);
  const answer = await outboundRequest(url, outboundPolicy(app.config), {
    method: options.part ? 'PUT' : 'POST',
    headers: { ...headers, accept: 'application/json', ...(options.part ? { 'content-length': String(options.part.size) } : {}) },
    body: options.part ? await options.part.stream() : text,
    signal,
    readAnswerBytes: ANSWER_MAX_BYTES,
  });
  const answerText = answer.body ?? '';
  let json: unknown;
  try {
    json = JSON.parse(answerText);
  } catch {
    json = undefined;
  }
  if (answer.status < 200 || answer.status >= 300) throw new PartnerCallError(`The partner answered with status ${answer.status}`, answer.status, json);
  try {
    await verifyPartnerAnswer(connection, answer.status, answer.headers ?? {}, answerText);
  } catch (error) {
    if (!(error instanceof TrustRefusal)) throw error;
    throw new PartnerCallError(`The partner's answer: ${error.message}`, answer.status);
  }
  return json;
}
