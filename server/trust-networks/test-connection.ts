import { TRUST_PING_PATH, TrustPongSchema, type TrustConnection, type TrustRefusalReason, type TrustTestStep } from '@shared/contract/trust-networks';
import type { FastifyInstance } from 'fastify';
import { conflict } from '../core/http-error';
import { outboundErrorText, outboundFailureKind, outboundPolicy, outboundRequest } from '../outbound/outbound-guard';
import { connectionByUuid, privateKeyOf, toWire, type TrustConnectionRow } from './connections';
import { verifyPartnerAnswer } from './partner-calls';
import { signRequest, TrustRefusal, type Signing } from './signatures';

/** How long the partner has to answer a ping. */
const PING_TIMEOUT_MS = 10_000;
/** A ping answer is a few hundred bytes; anything far larger is not one. */
const ANSWER_MAX_BYTES = 64 * 1024;

export interface TestFailure {
  step: TrustTestStep;
  reason: string;
}

const STEP_OF: Record<TrustRefusalReason, TrustTestStep> = {
  missingSignature: 'badSignature',
  unknownKey: 'unknownKey',
  revokedKey: 'unknownKey',
  badSignature: 'badSignature',
  badDigest: 'badSignature',
  clockSkew: 'clockSkew',
  replayed: 'answer',
};

/** Our words for a partner's refusal (never its own text: the address is one an administrator typed, its answer stays out). */
const PARTNER_REFUSED: Record<TrustRefusalReason, string> = {
  missingSignature: 'The partner did not see a signature on the request',
  unknownKey: "The partner does not know this connection's key (has its administrator entered it?)",
  revokedKey: 'The partner has deleted its connection with this key',
  badSignature: 'The partner could not verify the signature (is the partner URL exactly its public address?)',
  badDigest: 'The partner found that the body does not match its signed digest',
  clockSkew: "The partner's clock and this server's differ by more than the signature window",
  replayed: 'The partner had already seen this request',
};

const isRefusalReason = (value: unknown): value is TrustRefusalReason => typeof value === 'string' && value in STEP_OF;

/**
 * The signed round trip (docs/trust-networks.md, "Test connection"): a ping signed with this
 * connection's own key through the outbound guard, the partner's signed answer verified against the
 * partner key entered here. Null when everything held; otherwise the step that failed and why.
 */
export async function pingPartner(app: FastifyInstance, row: TrustConnectionRow, signing: Partial<Signing> = {}): Promise<TestFailure | null> {
  const partnerKey = row.partner_public_key;
  if (partnerKey === null) throw conflict('Enter the partner key before testing the connection');
  const url = `${row.partner_url}${TRUST_PING_PATH}`;
  const body = JSON.stringify({ type: 'ping', to: row.partner_key_fingerprint });
  const { headers, nonce } = await signRequest(url, body, { privateKey: privateKeyOf(app, row), keyId: row.own_key_fingerprint, ...signing });
  let answer;
  try {
    answer = await outboundRequest(url, outboundPolicy(app.config), { method: 'POST', headers: { ...headers, accept: 'application/json' }, body, signal: AbortSignal.timeout(PING_TIMEOUT_MS), readAnswerBytes: ANSWER_MAX_BYTES });
  } catch (error) {
    return { step: outboundFailureKind(error) === 'tls' ? 'tls' : 'unreachable', reason: outboundErrorText(error) };
  }
  const text = answer.body ?? '';
  if (answer.status === 401) {
    const reason = (parseJson(text) as { metadata?: { reason?: unknown } } | undefined)?.metadata?.reason;
    if (isRefusalReason(reason)) return { step: STEP_OF[reason], reason: PARTNER_REFUSED[reason] };
  }
  if (answer.status !== 200) return { step: 'answer', reason: `The partner answered with status ${answer.status} instead of a signed ping answer` };
  try {
    await verifyPartnerAnswer(row, answer.status, answer.headers ?? {}, text);
  } catch (error) {
    if (!(error instanceof TrustRefusal)) throw error;
    return { step: STEP_OF[error.reason], reason: `The partner's answer: ${error.message}` };
  }
  const pong = TrustPongSchema.safeParse(parseJson(text));
  if (!pong.success || pong.data.nonce !== nonce) return { step: 'answer', reason: 'The partner answered something else than the answer to this ping' };
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs the test and keeps its result on the connection: `established`, or `error` with the step and reason. */
export async function testConnection(app: FastifyInstance, actorUserId: number, uuid: string): Promise<TrustConnection> {
  const row = await connectionByUuid(app, uuid);
  const failure = await pingPartner(app, row);
  const now = Date.now();
  await app.db
    .updateTable('trust_connections')
    .set({ status: failure ? 'error' : 'established', last_test_step: failure?.step ?? null, last_test_reason: failure?.reason ?? null, last_tested_at: now })
    .where('id', '=', row.id)
    .where('deleted_at', 'is', null)
    .execute();
  await app.auditLog.record({ actorUserId, action: 'trustNetwork.tested', subjectUserId: null, details: { connectionId: uuid, ok: failure === null, step: failure?.step ?? null } });
  return toWire(await connectionByUuid(app, uuid));
}
