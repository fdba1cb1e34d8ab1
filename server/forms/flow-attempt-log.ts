import { FLOW_ATTEMPTS_KEPT } from '@shared/contract/flow-attempts';
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The rows of the webhook's delivery log (migration 0081; read by ./flow-attempts.ts, written for every POST). */
export interface PostedAttempt {
  at: number;
  durationMs: number;
  /** null: not reached (then `error` and `cause` say why). */
  statusCode: number | null;
  error: string | null;
  cause?: unknown;
}

interface FlowWebhookAttemptsTable {
  id: Generated<number>;
  form_id: number;
  hand_off_id: number | null;
  test: number;
  attempted_at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

declare module '../db/schema' {
  interface Database {
    flow_webhook_attempts: FlowWebhookAttemptsTable;
  }
}

/** Keeps the attempt and drops the form's rows beyond the newest FLOW_ATTEMPTS_KEPT. */
export async function recordAttempt(db: Kysely<Database>, attempt: { formId: number; handOffId: number | null; test: boolean } & PostedAttempt): Promise<void> {
  await db
    .insertInto('flow_webhook_attempts')
    .values({ form_id: attempt.formId, hand_off_id: attempt.handOffId, test: attempt.test ? 1 : 0, attempted_at: attempt.at, status_code: attempt.statusCode, duration_ms: attempt.durationMs, error: attempt.error })
    .execute();
  const oldest = await db.selectFrom('flow_webhook_attempts').select('id').where('form_id', '=', attempt.formId).orderBy('id', 'desc').offset(FLOW_ATTEMPTS_KEPT).limit(1).executeTakeFirst();
  if (oldest) await db.deleteFrom('flow_webhook_attempts').where('form_id', '=', attempt.formId).where('id', '<=', oldest.id).execute();
}

