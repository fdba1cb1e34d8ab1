import type { FastifyInstance } from 'fastify';
import { periodicJob, type JobKind } from '../jobs/job-queue';
import { pruneRecipientLookups } from '../security/recipient-lookups';
import '../security/tables';

/**
 * Sweeps what the escalations leave behind: expired captchas, old rate-limit events and sign-in throttles,
 * spent or expired reset tokens and verification codes. A periodic job on the database job
 * queue: once per interval across all servers (the deletes are idempotent anyway).
 */

/** Often enough to keep the tables small, rare enough to cost nothing. */
export const ESCALATION_CLEANUP_INTERVAL_MS = 10 * 60_000;
/** Longer than any rate-limit window we use (the longest is one hour). */
const RATE_LIMIT_EVENT_MAX_AGE_MS = 24 * 60 * 60_000;
/** Used reset tokens are kept a day, so a reused link still answers "used" (410) rather than "unknown". */
const SPENT_TOKEN_MAX_AGE_MS = 24 * 60 * 60_000;

export async function cleanUpEscalations(app: FastifyInstance, now = Date.now()): Promise<void> {
  await app.captchas.prune();
  await app.rateLimiter.prune(RATE_LIMIT_EVENT_MAX_AGE_MS);
  await app.loginThrottle.prune();
  await pruneRecipientLookups(app.db);
  await app.db.deleteFrom('password_reset_tokens').where('expires_at', '<=', now - SPENT_TOKEN_MAX_AGE_MS).execute();
  await app.db.deleteFrom('verification_codes').where('expires_at', '<=', now).execute();
}

export const ESCALATION_CLEANUP_JOB = 'escalation-cleanup';

export function escalationCleanupJobs(app: FastifyInstance): Record<string, JobKind<never>> {
  return { [ESCALATION_CLEANUP_JOB]: periodicJob(ESCALATION_CLEANUP_INTERVAL_MS, () => cleanUpEscalations(app)) };
}
