import { randomUUID } from 'node:crypto';
import { FLOW_ATTEMPTS_KEPT, type FlowAttempt, type FlowAttemptList } from '@shared/contract/flow-attempts';
import { FLOW_WEBHOOK_TEST_EVENT, SUBMISSION_JSON_VERSION, type HandOff, type HandOffState } from '@shared/contract/flows';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../core/http-error';
import { enqueueJob } from '../jobs/job-queue';
import type { UserRow } from '../users/users-repository';
import { assertMayEditForm } from './admin-settings';
import { FLOW_WEBHOOK_JOB, handOffByUuid, levelNumberOf, listHandOffWire, type FlowWebhookPayload } from './flow-handoff';
import { formFlowOf, secretOf } from './flow-settings';
import { postToWebhook } from './flow-webhook';
import { recordAttempt } from './flow-attempt-log';
import { formByUuid, type FormRow } from './forms';

/**
 * The webhook's delivery log (shared/contract/flow-attempts.ts, migration 0081): every POST to a
 * form's webhook is a row; the log, "Send test" and "Send again" are for those who may edit the form.
 */

async function editableForm(app: FastifyInstance, user: UserRow, formUuid: string): Promise<FormRow> {
  const form = await formByUuid(app, formUuid);
  await assertMayEditForm(app.db, user, form);
  return form;
}

/** When the queue runs a pending hand-off's job next (its payload names the hand-off). */
async function nextRuns(app: FastifyInstance, handOffUuids: readonly string[]): Promise<Map<string, number>> {
  if (handOffUuids.length === 0) return new Map();
  const jobs = await app.db
    .selectFrom('jobs')
    .select(['payload', 'run_at'])
    .where('kind', '=', FLOW_WEBHOOK_JOB)
    .where('payload', 'in', handOffUuids.map((handOffId) => JSON.stringify({ handOffId } satisfies FlowWebhookPayload)))
    .execute();
  return new Map(jobs.map((j) => [(JSON.parse(j.payload) as FlowWebhookPayload).handOffId, Number(j.run_at)]));
}

export async function listAttempts(app: FastifyInstance, user: UserRow, formUuid: string): Promise<FlowAttemptList> {
  const form = await editableForm(app, user, formUuid);
  const rows = await app.db
    .selectFrom('flow_webhook_attempts as a')
    .leftJoin('flow_hand_offs as h', 'h.id', 'a.hand_off_id')
    .select(['a.attempted_at', 'a.test', 'a.status_code', 'a.duration_ms', 'a.error', 'h.uuid', 'h.state'])
    .where('a.form_id', '=', form.id)
    .orderBy('a.id', 'desc')
    .limit(FLOW_ATTEMPTS_KEPT)
    .execute();
  const pending = [...new Set(rows.filter((r) => r.state === 'pending' && r.uuid !== null).map((r) => r.uuid!))];
  const due = await nextRuns(app, pending);
  const items: FlowAttempt[] = rows.map((r) => ({
    at: Number(r.attempted_at),
    handOffId: r.uuid,
    test: r.test === 1,
    statusCode: r.status_code,
    durationMs: r.duration_ms,
    error: r.error,
    handOffState: (r.state as HandOffState | null) ?? null,
    nextAttemptAt: r.state === 'pending' && r.uuid !== null ? (due.get(r.uuid) ?? null) : null,
  }));
  return { items };
}

/** "Send test": a body marked `test: true` (event form.test), signed with the form's secret, posted now. */
export async function sendTest(app: FastifyInstance, user: UserRow, formUuid: string): Promise<FlowAttempt> {
  const form = await editableForm(app, user, formUuid);
  const flow = await formFlowOf(app.db, form.id);
  const secret = flow ? secretOf(app, flow) : null;
  if (!flow || flow.enabled !== 1 || flow.webhook_url === '' || secret === null) throw conflict('Turn the process service on with a webhook and its secret first');
  const id = `test-${randomUUID()}`;
  const now = new Date().toISOString();
  const body = { event: FLOW_WEBHOOK_TEST_EVENT, version: SUBMISSION_JSON_VERSION, handOffId: id, formUuid: form.uuid, formName: form.name, deliveryUuid: '', securityLevel: levelNumberOf(form.security_level), sentAt: now, test: true, submission: null, encrypted: false, submittedAt: now, attachment: null } as const;
  const posted = await postToWebhook(app, { url: flow.webhook_url, secret, body, handOffUuid: id, signal: new AbortController().signal });
  await recordAttempt(app.db, { formId: form.id, handOffId: null, test: true, ...posted });
  return { at: posted.at, handOffId: null, test: true, statusCode: posted.statusCode, durationMs: posted.durationMs, error: posted.error, handOffState: null, nextAttemptAt: null };
}

/** "Send again": a failed or delivered hand-off of this form goes to the queue again (the receiver sees the same hand-off id). */
export async function sendAgain(app: FastifyInstance, user: UserRow, formUuid: string, handOffUuid: string): Promise<HandOff> {
  const form = await editableForm(app, user, formUuid);
  const row = await handOffByUuid(app.db, handOffUuid);
  if (!row || row.form_id !== form.id) throw notFound('No such hand-off of this form');
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('flow_hand_offs').set({ state: 'pending', last_error: null }).where('id', '=', row.id).where('state', 'in', ['failed', 'delivered']).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('Only a failed or delivered hand-off can be sent again');
    await enqueueJob(trx, FLOW_WEBHOOK_JOB, { handOffId: row.uuid } satisfies FlowWebhookPayload);
  });
  app.jobs.kick();
  return listHandOffWire(app, handOffUuid);
}
