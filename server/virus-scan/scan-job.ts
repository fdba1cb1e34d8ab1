import type { Readable } from 'node:stream';
import { reduceLanguage } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS, DELIVERY_WEB_LINKS, type ActivityEntry, type ReviewState } from '@shared/contract/deliveries';
import { isBlockedType, parseFileTypeList as parseList } from '@shared/contract/file-policy';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';
import { enqueueJob, type JobKind } from '../jobs/job-queue';
import type { UserRow } from '../users/users-repository';
import { createClamdClient, ScannerError, type ClamdClient } from './clamd';
import { DELIVERY_SCAN_JOB, type DeliveryScanPayload } from './review-policy';

type DeliveryRow = Selectable<Database['deliveries']>;
type FileRow = Selectable<Database['delivery_files']>;
type RecipientRow = Selectable<Database['delivery_recipients']>;

/**
 * What the scan job needs of deliveries/ (`deliveries/scan-operations.ts` provides it, app.ts
 * passes it in): virus-scan/ sits below deliveries/ and never imports it.
 */
export interface DeliveryScanOperations {
  /** The bytes `start..end` (inclusive) of a committed file, read part by part. */
  fileStream(app: FastifyInstance, delivery: DeliveryRow, file: FileRow, start: number, end: number): Readable;
  /** One line of the delivery's activity log. */
  activity(db: Kysely<Database>, deliveryId: number, kind: ActivityEntry['kind'], options?: { detail?: string | null }): Promise<void>;
  /**
   * The type the file's first bytes show (extension and MIME type), or null: the same detection
   * (file-type, uploads/content-type.ts) as the commit's blocked-type check.
   */
  sniff(app: FastifyInstance, delivery: DeliveryRow, file: FileRow): Promise<{ extension: string; mimeType: string } | null>;
  /** Mails the recipients after a clean scan (level 1 links with fresh tokens). */
  notifyWithFreshTokens(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipients: RecipientRow[], log: FastifyBaseLogger): Promise<string[]>;
}

/**
 * The delivery virus scan (SPEC §4, DESIGN §4), one database job per sent level 1/2 delivery
 * (queued in the send transaction, review-policy.ts). The job streams each file's parts to clamd and
 * sniffs its first bytes; then, once per delivery (a conditional update, so a re-run after a
 * crash never mails twice):
 * - every file clean → review `clean`, links issued and recipients mailed;
 * - a virus → `blockedVirus` (the remaining files stay "not scanned");
 * - a file whose content is a forbidden program while its name and declared type were
 *   allowed → `blockedMime`;
 * - clamd down, refusing or timing out → retried (config `scanAttempts`, doubling from
 *   `scanRetryDelayMs`), then `blockedReviewerFailed` ("scan failed"), never clean. If our
 *   own storage failed instead, `blockedOther`.
 * Files already found clean are not scanned again on a retry. The sender learns of a block
 * from the sent detail, the activity log and a mail.
 */


/** Job kind of the mail that follows a review decision (recipients after `clean`, the sender after a block). */
export const DELIVERY_REVIEW_NOTICE_JOB = 'deliveryReviewNotice';

/**
 * Sets the review state once, from `inProgress` only, and in the same transaction writes the
 * activity line and queues the notice: a database outage right after the decision can no longer
 * lose the mail (the re-run finds the state set and stops; the notice job runs on its own,
 * issue 29 §1). False when someone else decided already.
 */
async function settle(app: FastifyInstance, ops: DeliveryScanOperations, delivery: DeliveryRow, state: ReviewState, detail?: string): Promise<boolean> {
  return app.db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('deliveries').set({ review_state: state }).where('id', '=', delivery.id).where('review_state', '=', 'inProgress').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (state === 'clean') await ops.activity(trx, delivery.id, 'reviewClean');
    else await ops.activity(trx, delivery.id, 'reviewBlocked', { detail });
    const payload: DeliveryScanPayload = { deliveryId: delivery.id };
    await enqueueJob(trx, DELIVERY_REVIEW_NOTICE_JOB, payload);
    return true;
  });
}

async function block(app: FastifyInstance, ops: DeliveryScanOperations, delivery: DeliveryRow, state: ReviewState, reason: string): Promise<void> {
  await settle(app, ops, delivery, state, `${state}: ${reason}`);
}

/** The notice job: mails whoever the decided review state concerns (run again after an outage: at least once). */
async function sendReviewNotice(app: FastifyInstance, ops: DeliveryScanOperations, payload: DeliveryScanPayload): Promise<void> {
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', payload.deliveryId).executeTakeFirst();
  if (!delivery || delivery.status !== 'sent' || delivery.purged_at !== null) return;
  const state = delivery.review_state as ReviewState;
  if (state === 'inProgress' || state === 'notReviewed') return;
  const sender = await app.users.findById(delivery.sender_id);
  if (!sender) return;
  if (state === 'clean') {
    // A re-run after an outage mails only those whose notice was not recorded yet.
    const recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).where('removed_at', 'is', null).where('notified_at', 'is', null).execute();
    if (recipients.length === 0) return;
    await ops.notifyWithFreshTokens(app, sender, delivery, recipients, app.log);
    return;
  }
  await app.mailer
    .send({
      to: sender.email,
      template: 'deliveryBlocked',
      language: reduceLanguage(sender.language),
      data: { subject: delivery.subject, reason: state === 'blockedVirus' ? 'virus' : state === 'blockedMime' ? 'mimeType' : 'scanFailed', link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.outbox}` },
    })
    .catch((err: unknown) => app.log.error({ err, deliveryUuid: delivery.uuid }, 'mail to the sender of a blocked delivery failed'));
}

async function scanDelivery(app: FastifyInstance, ops: DeliveryScanOperations, clamd: ClamdClient, payload: DeliveryScanPayload, signal: AbortSignal): Promise<void> {
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', payload.deliveryId).executeTakeFirst();
  // Deleted, purged or decided meanwhile: nothing left to do.
  if (!delivery || delivery.status !== 'sent' || delivery.review_state !== 'inProgress' || delivery.purged_at !== null) return;
  const files = (await app.db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery.id).orderBy('id').execute()) as FileRow[];
  const all = await app.settings.getAll();
  const policy = { blockedExtensions: parseList(all[DELIVERY_SETTING_KEYS.blockedExtensions]), blockedMimeTypes: parseList(all[DELIVERY_SETTING_KEYS.blockedMimeTypes]) };

  for (const file of files) {
    if (file.scan_state === 'clean') continue;
    const program = await ops.sniff(app, delivery, file);
    const verdict = await clamd.scan(ops.fileStream(app, delivery, file, 0, Number(file.size) - 1), { signal });
    const now = Date.now();
    if (verdict.infected) {
      await app.db.updateTable('delivery_files').set({ scan_state: 'virusDetected', scan_detail: verdict.viruses.join(', '), scanned_at: now }).where('id', '=', file.id).execute();
      // The delivery is blocked whatever the rest holds: the others wait as "not scanned".
      await app.db.updateTable('delivery_files').set({ scan_state: 'notScanned' }).where('delivery_id', '=', delivery.id).where('scan_state', '=', 'scanning').execute();
      await block(app, ops, delivery, 'blockedVirus', `${file.name}: ${verdict.viruses.join(', ')}`);
      return;
    }
    const mimeBlocked = program !== null && isBlockedType(program.extension, program.mimeType, policy);
    await app.db
      .updateTable('delivery_files')
      .set({ scan_state: 'clean', scan_detail: mimeBlocked ? `mime:${program.mimeType}` : null, scanned_at: now })
      .where('id', '=', file.id)
      .execute();
    file.scan_state = 'clean';
    file.scan_detail = mimeBlocked ? `mime:${program.mimeType}` : null;
  }

  const disguised = files.find((f) => f.scan_detail?.startsWith('mime:'));
  if (disguised) {
    await block(app, ops, delivery, 'blockedMime', `${disguised.name}: ${disguised.scan_detail!.slice(5)}`);
    return;
  }
  await settle(app, ops, delivery, 'clean');
}

/** After the last attempt: the files not found clean are "error", the delivery is blocked. */
async function giveUp(app: FastifyInstance, ops: DeliveryScanOperations, payload: DeliveryScanPayload, error: unknown): Promise<void> {
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', payload.deliveryId).executeTakeFirst();
  if (!delivery || delivery.review_state !== 'inProgress') return;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  await app.db
    .updateTable('delivery_files')
    .set({ scan_state: 'error', scan_detail: message, scanned_at: Date.now() })
    .where('delivery_id', '=', delivery.id)
    .where('scan_state', '=', 'scanning')
    .execute();
  await block(app, ops, delivery, error instanceof ScannerError ? 'blockedReviewerFailed' : 'blockedOther', message);
}

/** More scan job kinds (data-room files: rooms/plain/scan.ts), run with this module's one clamd client. */
export type ScanJobKinds = (clamd: ClamdClient) => Record<string, JobKind<never>>;

/** The job kinds of this module (and of `more`), for the app's job runner; none when scanning is off. */
export function virusScanJobs(app: FastifyInstance, ops: DeliveryScanOperations, ...more: ScanJobKinds[]): Record<string, JobKind<never>> {
  const address = app.config.clamdAddress;
  if (address === undefined) return {};
  const clamd = createClamdClient(address, app.config.clamdTimeoutMs);
  return {
    ...Object.assign({}, ...more.map((kinds) => kinds(clamd))),
    [DELIVERY_SCAN_JOB]: {
      maxAttempts: app.config.scanAttempts,
      retryDelayMs: app.config.scanRetryDelayMs,
      run: (payload, { signal }) => scanDelivery(app, ops, clamd, payload, signal),
      giveUp: (payload, error) => giveUp(app, ops, payload, error),
    },
    [DELIVERY_REVIEW_NOTICE_JOB]: {
      maxAttempts: 3,
      retryDelayMs: app.config.scanRetryDelayMs,
      run: (payload) => sendReviewNotice(app, ops, payload),
      // The decision stands and is shown in the sent detail and activity log; only the mail is missing.
      giveUp: async (payload: DeliveryScanPayload, error: unknown) => app.log.error({ err: error, deliveryId: payload.deliveryId }, 'the review notice mail could not be sent'),
    },
  };
}
