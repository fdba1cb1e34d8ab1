import type { FieldValue } from '@shared/contract/forms';
import { renderConfirmationText } from '@shared/rules/form-admin-rules';
import { reduceLanguage } from '@shared/contract/constants';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { DeliveryRow } from '../deliveries/records';
import { enqueueJob, periodicJob, type JobKind } from '../jobs/job-queue';
import { SESSION_ABSOLUTE_TIMEOUT_MS, SESSION_IDLE_TIMEOUT_MS } from '../sessions/sessions-store';
import { isSubmitterOnly } from '../users/submitter-accounts';
import { adminOf } from './admin-settings';
import './tables';

/**
 * What happens when a form submission completes — its delivery is sent, after every upload was
 * committed (deliveries/sending.ts refuses the send before) — and to submissions that never do:
 * - the submitter's confirmation mail goes out then, not when the submission starts, and never
 *   for a submission that is not sent;
 * - levels 3/4: the per-submission submitter account (forms/e2e.ts) is closed — disabled, its
 *   sessions deleted. It is not deleted: it is the delivery's sender (the recipient's view shows
 *   its name, the form's, and verifies the files' signatures with its public keys), so the row and
 *   its public keys stay; nobody can sign in with it (no password) or use its submit session.
 * Both run in a job queued inside the send's transaction (exists exactly when the delivery is
 * sent; retried when the mail server fails). A periodic sweep closes the accounts of submissions
 * whose submit session ran out without a send.
 */

export const FORM_SUBMISSION_COMPLETED_JOB = 'form-submission-completed';
export const FORM_SUBMISSION_SWEEP_JOB = 'form-submission-sweep';
export const FORM_SUBMISSION_SWEEP_INTERVAL_MS = 30 * 60_000;
/** Rows handled per sweep run. */
const SWEEP_BATCH = 200;

export interface SubmissionCompletedPayload {
  submissionId: number;
}

const today = () => new Date().toISOString().slice(0, 10);

/** The deliveries' `sent` hook: a form submission's delivery was sent → completed, its job queued (same transaction). */
export async function submissionOnSent(trx: Transaction<Database>, delivery: DeliveryRow): Promise<void> {
  const row = await trx.selectFrom('form_submissions').select('id').where('delivery_id', '=', delivery.id).where('completed_at', 'is', null).executeTakeFirst();
  if (!row) return;
  const updated = await trx.updateTable('form_submissions').set({ completed_at: Date.now() }).where('id', '=', row.id).where('completed_at', 'is', null).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) await enqueueJob(trx, FORM_SUBMISSION_COMPLETED_JOB, { submissionId: row.id } satisfies SubmissionCompletedPayload);
}

/** Disables a per-submission submitter account and ends its sessions (idempotent; anything but a submitter-only account stays untouched). */
async function closeSubmitterAccount(app: FastifyInstance, submissionId: number, userId: number | null): Promise<boolean> {
  if (userId !== null) {
    const user = await app.users.findById(userId);
    if (user && isSubmitterOnly(user)) {
      await app.db.updateTable('users').set({ disabled: 1, updated_at: Date.now() }).where('id', '=', userId).execute();
      await app.sessions.deleteAllForUser(userId);
    }
  }
  const closed = await app.db.updateTable('form_submissions').set({ account_closed_at: Date.now() }).where('id', '=', submissionId).where('account_closed_at', 'is', null).executeTakeFirst();
  return Number(closed.numUpdatedRows) === 1;
}

/** The completion job: the confirmation mail once (marked after it left; a failing mail server retries), then the account. */
export async function completeSubmission(app: FastifyInstance, submissionId: number): Promise<void> {
  const submission = await app.db.selectFrom('form_submissions').selectAll().where('id', '=', submissionId).executeTakeFirst();
  if (!submission || submission.completed_at === null) return;
  if (submission.confirmation_to !== null && submission.confirmation_sent_at === null) {
    const form = submission.form_id === null ? undefined : await app.db.selectFrom('forms').selectAll().where('id', '=', submission.form_id).executeTakeFirst();
    // The text as it is now: a form deleted or without a text since the start sends none.
    const text = form ? (await adminOf(app.db, form)).confirmationMailText : '';
    if (form && text.trim() !== '') {
      const language = reduceLanguage(submission.language ?? 'en');
      const date = today();
      // The placeholders filled from the values kept at the start (the mail template escapes them for HTML).
      const values = JSON.parse(submission.confirmation_values ?? '{}') as Record<string, FieldValue>;
      await app.mailer.send({ to: submission.confirmation_to, template: 'formConfirmation', language, data: { formName: form.name, text: renderConfirmationText(text, { formName: form.name, date, values }), date } });
    }
    // The values were kept for this mail only.
    await app.db.updateTable('form_submissions').set({ confirmation_sent_at: Date.now(), confirmation_values: null }).where('id', '=', submission.id).execute();
  }
  if (submission.account_closed_at === null) await closeSubmitterAccount(app, submission.id, submission.submitter_user_id);
}

/**
 * Submissions never sent whose submit session is over (gone, idle past SESSION_IDLE_TIMEOUT_MS or
 * past its absolute end): their submitter accounts are closed. The draft itself stays for the
 * deliveries' own clean-up. Returns how many were closed.
 */
export async function sweepAbandonedSubmissions(app: FastifyInstance, now = Date.now()): Promise<number> {
  const candidates = await app.db
    .selectFrom('form_submissions as f')
    .leftJoin('sessions as s', 's.id', 'f.session_id')
    .select(['f.id', 'f.submitter_user_id', 'f.created_at', 's.id as live_session', 's.expires_at', 's.last_seen_at'])
    .where('f.completed_at', 'is', null)
    .where('f.account_closed_at', 'is', null)
    .where('f.submitter_user_id', 'is not', null)
    .orderBy('f.id')
    .limit(SWEEP_BATCH)
    .execute();
  const over = candidates.filter(
    (c) => c.live_session === null || Number(c.expires_at) <= now || Number(c.last_seen_at) <= now - SESSION_IDLE_TIMEOUT_MS || Number(c.created_at) <= now - SESSION_ABSOLUTE_TIMEOUT_MS,
  );
  let closed = 0;
  for (const submission of over) {
    // A send may have won the race since the select: only a still open submission is closed here.
    const still = await app.db.selectFrom('form_submissions').select('id').where('id', '=', submission.id).where('completed_at', 'is', null).executeTakeFirst();
    if (still && (await closeSubmitterAccount(app, submission.id, submission.submitter_user_id))) closed++;
  }
  return closed;
}

/** The completion job for the app's job runner. */
export const submissionCompletionJobs = (app: FastifyInstance): Record<string, JobKind<SubmissionCompletedPayload>> => ({
  [FORM_SUBMISSION_COMPLETED_JOB]: {
    maxAttempts: 5,
    retryDelayMs: 60_000,
    run: (payload) => completeSubmission(app, payload.submissionId),
    giveUp: async (payload, error) => {
      app.log.error({ err: error, submissionId: payload.submissionId }, 'form submission completion failed (confirmation mail or submitter account)');
    },
  },
});

/** The periodic sweep of abandoned submissions (once per period across all servers). */
export const submissionSweepJobs = (app: FastifyInstance): Record<string, JobKind<never>> => ({
  [FORM_SUBMISSION_SWEEP_JOB]: periodicJob(FORM_SUBMISSION_SWEEP_INTERVAL_MS, async () => void (await sweepAbandonedSubmissions(app))),
});

/**
 * The form a delivery is the submission of, when its sender is that submission's own account
 * (levels 3/4, forms/e2e.ts): the delivery's detail names the form (`fromForm`), so the reader sees
 * the form as the sender rather than the account's made-up address (issue 33 §2). At levels 1/2 the
 * sender is the form's own account, a person, and shown as such: undefined.
 */
export async function submissionFormOf(app: FastifyInstance, deliveryId: number): Promise<{ name: string } | undefined> {
  const row = await app.db
    .selectFrom('form_submissions as s')
    .innerJoin('forms as f', 'f.id', 's.form_id')
    .innerJoin('deliveries as d', 'd.id', 's.delivery_id')
    .select('f.name')
    .where('s.delivery_id', '=', deliveryId)
    .whereRef('s.submitter_user_id', '=', 'd.sender_id')
    .executeTakeFirst();
  return row ? { name: row.name } : undefined;
}
