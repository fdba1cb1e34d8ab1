// The review policy of SPEC §4 / DESIGN §4: when a delivery is scanned, what each review state
// lets through, and queueing the scan. deliveries/ asks it; it knows the deliveries' rows only
// through the database schema (db/schema.ts), never deliveries/ itself.
import { isE2eLevel } from '@shared/contract/security-levels';
import type { ReviewState } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { HttpError } from '../core/http-error';
import type { Database } from '../db/schema';
import { enqueueJob } from '../jobs/job-queue';

/** Job kind of the delivery virus scan (scan-job.ts). */
export const DELIVERY_SCAN_JOB = 'deliveryScan';
export interface DeliveryScanPayload {
  deliveryId: number;
}

/**
 * The server scans levels 1/2 when clamd is configured; levels 3/4 are end-to-end encrypted,
 * the server cannot read them ("not scanned", DESIGN §4).
 */
export function scanApplies(app: FastifyInstance, delivery: Pick<Database['deliveries'], 'security_level'>): boolean {
  return app.config.clamdAddress !== undefined && !isE2eLevel(delivery.security_level);
}

/** Attachments may be fetched: never reviewed (scanning off, E2E, sent before scanning) or reviewed clean. */
export function reviewAllowsAccess(reviewState: string): boolean {
  return reviewState === 'notReviewed' || reviewState === 'clean';
}

/** Why a blocked delivery's files are refused (metadata.reason), by review state. */
const REFUSAL_REASON: Partial<Record<ReviewState, string>> = {
  inProgress: 'scanInProgress',
  blockedVirus: 'virusDetected',
  blockedMime: 'mimeTypeMismatch',
  blockedReviewerFailed: 'scanFailed',
  blockedOther: 'blocked',
};

/**
 * Refuses a file of a delivery under review or blocked (SPEC §4: blocked means the attachments
 * cannot be accessed) with 403 FileNotAllowedException, the §8 class for a file the policy
 * does not let through; `metadata.reviewState` / `reason` tell "being checked" from "blocked".
 */
export function refuseUnlessScanned(delivery: Pick<Database['deliveries'], 'review_state'>, file: Pick<Database['delivery_files'], 'name'> & { scan_state: string }): void {
  const state = delivery.review_state as ReviewState;
  const blockedFile = file.scan_state === 'virusDetected' || file.scan_state === 'error';
  if (reviewAllowsAccess(state) && !blockedFile) return;
  const message = state === 'inProgress' ? 'The attachments are being checked for viruses' : 'The attachments are blocked';
  throw new HttpError(403, 'FileNotAllowedException', message, { name: file.name, reviewState: state, reason: REFUSAL_REASON[state] ?? 'blocked' });
}

/** Marks the files as queued and adds the scan job, inside the send transaction. */
export async function queueDeliveryScan(trx: Kysely<Database>, deliveryId: number): Promise<void> {
  await trx.updateTable('delivery_files').set({ scan_state: 'scanning', scan_detail: null }).where('delivery_id', '=', deliveryId).execute();
  const payload: DeliveryScanPayload = { deliveryId };
  await enqueueJob(trx, DELIVERY_SCAN_JOB, payload);
}
