import { createHmac } from 'node:crypto';
import { FLOW_WEBHOOK_EVENT, FLOW_WEBHOOK_HEADERS, SUBMISSION_JSON_VERSION, SubmissionJsonSchema, type FlowWebhookBody } from '@shared/contract/flows';
import type { FastifyInstance } from 'fastify';
import type { JobKind } from '../jobs/job-queue';
import { outboundErrorText, outboundPolicy, outboundRequest, OutboundRefusedError } from '../outbound/outbound-guard';
import { FLOW_WEBHOOK_JOB, attachmentsOf, handOffByUuid, isEncryptedHandOff, levelNumberOf, type FlowWebhookPayload } from './flow-handoff';
import { formFlowOf, secretOf } from './flow-settings';
import { recordAttempt, type PostedAttempt } from './flow-attempt-log';

/** One POST's deadline (connect, send, answer). */
const WEBHOOK_TIMEOUT_MS = 15_000;
const MAX_ERROR_LENGTH = 500;

/** `t=<unix ms>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the time is signed with the body, so an old request cannot be replayed later unnoticed. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A refusal the receiver will repeat: no retry (4xx but timeout, too early, too many). */
const isPermanent = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429;

class PermanentFailure extends Error {}

/**
 * The webhook job: POSTs the signed hand-off; 2xx → delivered; a permanent refusal (most 4xx), a
 * process service turned off or an address the outbound guard refuses now → failed at once;
 * anything else (5xx, network, timeout, a redirect, which is not followed) is retried through the
 * queue with doubling delays (KUVERT_WEBHOOK_ATTEMPTS, KUVERT_WEBHOOK_RETRY_DELAY), then failed. Idempotent: a hand-off that is not pending is left alone, and the receiver gets the
 * same `kuvert-hand-off` id on every attempt.
 */
export function flowWebhookJobs(app: FastifyInstance): Record<string, JobKind<FlowWebhookPayload>> {
  const fail = async (handOffId: string, error: unknown) => {
    await app.db
      .updateTable('flow_hand_offs')
      .set({ state: 'failed', last_error: errorText(error) })
      .where('uuid', '=', handOffId)
      .where('state', '=', 'pending')
      .execute();
  };
  return {
    [FLOW_WEBHOOK_JOB]: {
      maxAttempts: app.config.webhookAttempts,
      retryDelayMs: app.config.webhookRetryDelayMs,
      async run({ handOffId }, { signal }) {
        try {
          await deliverOnce(app, handOffId, signal);
        } catch (error) {
          if (error instanceof PermanentFailure) return fail(handOffId, error);
          throw error;
        }
      },
      giveUp: async ({ handOffId }, error) => fail(handOffId, error),
    },
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);

async function deliverOnce(app: FastifyInstance, handOffId: string, signal: AbortSignal): Promise<void> {
  const handOff = await handOffByUuid(app.db, handOffId);
  if (!handOff || handOff.state !== 'pending') return;
  const flow = handOff.form_id === null ? undefined : await formFlowOf(app.db, handOff.form_id);
  if (!flow || flow.enabled !== 1 || flow.webhook_url === '') throw new PermanentFailure('The form no longer hands submissions to a webhook');
  const secret = secretOf(app, flow);
  if (secret === null) throw new PermanentFailure('The form has no webhook secret');
  const body: FlowWebhookBody = {
    event: FLOW_WEBHOOK_EVENT,
    version: SUBMISSION_JSON_VERSION,
    handOffId: handOff.uuid,
    formUuid: (await app.db.selectFrom('forms').select('uuid').where('id', '=', handOff.form_id!).executeTakeFirst())?.uuid ?? '',
    formName: handOff.form_name,
    deliveryUuid: handOff.delivery_uuid,
    securityLevel: levelNumberOf(handOff.security_level),
    sentAt: new Date(Number(handOff.sent_at ?? handOff.created_at)).toISOString(),
    test: false,
    submission: handOff.submission === null ? null : SubmissionJsonSchema.parse(JSON.parse(handOff.submission)),
    // Levels 3/4: only what the server knows (no values); the JSON is the delivery's encrypted file.
    encrypted: isEncryptedHandOff(handOff.security_level),
    submittedAt: new Date(Number(handOff.created_at)).toISOString(),
    attachment: handOff.file_uuid === null ? null : ((await attachmentsOf(app.db, [handOff.file_uuid])).get(handOff.file_uuid) ?? null),
  };
  const attempted = { attempts: handOff.attempts + 1, last_attempt_at: Date.now() };
  const posted = await postToWebhook(app, { url: flow.webhook_url, secret, body, handOffUuid: handOff.uuid, signal });
  if (posted.statusCode === null && signal.aborted) throw posted.cause; // shutting down: handed back, not counted
  await recordAttempt(app.db, { formId: handOff.form_id!, handOffId: handOff.id, test: false, ...posted });
  if (posted.statusCode === null) {
    app.log.warn({ handOffId, err: posted.cause }, 'flow webhook: no answer');
    await app.db.updateTable('flow_hand_offs').set({ ...attempted, last_error: posted.error }).where('id', '=', handOff.id).execute();
    if (posted.cause instanceof OutboundRefusedError) throw new PermanentFailure(posted.error ?? undefined);
    throw new Error(posted.error ?? undefined);
  }
  const status = posted.statusCode;
  if (status >= 200 && status < 300) {
    await app.db.updateTable('flow_hand_offs').set({ ...attempted, state: 'delivered', delivered_at: Date.now(), last_error: null }).where('id', '=', handOff.id).where('state', '=', 'pending').execute();
    return;
  }
  const message = `The webhook answered HTTP ${status}`;
  await app.db.updateTable('flow_hand_offs').set({ ...attempted, last_error: message }).where('id', '=', handOff.id).execute();
  if (isPermanent(status)) throw new PermanentFailure(message);
  throw new Error(message);
}

/**
 * One signed POST of a webhook body (a hand-off's or a test's), through the outbound guard: checked
 * again now and sent to the checked address only; no redirects. Never throws for the receiver's
 * failure: the caller records the attempt and decides about retries.
 */
export async function postToWebhook(app: FastifyInstance, post: { url: string; secret: string; body: FlowWebhookBody; handOffUuid: string; signal: AbortSignal }): Promise<PostedAttempt> {
  const text = JSON.stringify(post.body);
  const at = Date.now();
  try {
    const answer = await outboundRequest(post.url, outboundPolicy(app.config), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Kuvert-Flows/1',
        [FLOW_WEBHOOK_HEADERS.signature]: webhookSignature(post.secret, at, text),
        [FLOW_WEBHOOK_HEADERS.handOff]: post.handOffUuid,
        [FLOW_WEBHOOK_HEADERS.event]: post.body.event,
      },
      body: text,
      signal: AbortSignal.any([post.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return { at, durationMs: Date.now() - at, statusCode: answer.status, error: ok ? null : `The webhook answered HTTP ${answer.status}` };
  } catch (error) {
    // The Flows page and the log show the error: words of our own, never the target's address or answer.
    return { at, durationMs: Date.now() - at, statusCode: null, error: `The webhook could not be reached: ${outboundErrorText(error)}`.slice(0, MAX_ERROR_LENGTH), cause: error };
  }
}
