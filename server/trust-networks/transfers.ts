// The sender's side of a delivery across a connection (issue 30 §2, docs/trust-networks.md
// "Deliveries"): which recipients a partner serves, the transfer row made at the send, and the
// job that pushes the delivery (announce, missing parts, complete) with back-off while the partner is away.
import { randomUUID } from 'node:crypto';
import { securityLevelNumber, isE2eLevel } from '@shared/contract/security-levels';
import { TRUST_DELIVERY_PATHS, TrustDeliveryStateSchema, type TrustDeliveryAnnounce } from '@shared/contract/trust-networks';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { activity, partKey, type DeliveryRow } from '../deliveries/records';
import { enqueueJob, type JobKind } from '../jobs/job-queue';
import { outboundErrorText, OutboundRefusedError } from '../outbound/outbound-guard';
import { reviewAllowsAccess } from '../virus-scan/review-policy';
import { callPartner, PartnerCallError, type PartUpload } from './partner-calls';
import { e2eAnnounceOf } from './e2e';
import { partnerRoutes } from './partner-routes';

export const TRUST_TRANSFER_JOB = 'trust-transfer';
export interface TrustTransferPayload {
  transferId: string;
}

/** Tries before a transfer is given up (failed): doubling from 30 s, about 4 h 15 min in all. */
const TRANSFER_ATTEMPTS = 10;
const TRANSFER_RETRY_DELAY_MS = 30_000;
/** Parts pushed to the partner at once. */
const PARTS_IN_FLIGHT = 3;
const MAX_ERROR_LENGTH = 500;

/**
 * The deliveries hook at the send (`deliveryHooks.sent`, in its transaction): a delivery to
 * addresses a partner serves becomes one pending transfer per connection, with its job (levels 3/4
 * carry the ciphertext and the copies wrapped to the partner's keys, e2e.ts).
 */
export async function transferOnSent(trx: Transaction<Database>, delivery: DeliveryRow): Promise<void> {
  const recipients = await trx.selectFrom('delivery_recipients').select('email').where('delivery_id', '=', delivery.id).execute();
  const routes = await partnerRoutes(trx, recipients.map((r) => r.email));
  const byConnection = new Map<number, string[]>();
  for (const [email, connection] of routes) byConnection.set(connection.id, [...(byConnection.get(connection.id) ?? []), email]);
  const now = Date.now();
  for (const [connectionId, emails] of byConnection) {
    const uuid = randomUUID();
    await trx
      .insertInto('trust_transfers')
      .values({ uuid, delivery_id: delivery.id, connection_id: connectionId, recipients: JSON.stringify(emails), state: 'pending', last_error: null, created_at: now, updated_at: now, delivered_at: null })
      .execute();
    await enqueueJob(trx, TRUST_TRANSFER_JOB, { transferId: uuid } satisfies TrustTransferPayload);
  }
}

/** Addresses of this delivery a partner server serves: this server mails them nothing (no link leaves it for them). */
export async function partnerServedRecipients(db: Kysely<Database>, deliveryId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('trust_transfers').select('recipients').where('delivery_id', '=', deliveryId).execute();
  return new Set(rows.flatMap((row) => JSON.parse(row.recipients) as string[]));
}

/** Per address a partner serves in this delivery: the partner's URL and the transfer's state as the sender sees it. */
export async function partnerServerStates(db: Kysely<Database>, deliveryId: number): Promise<Map<string, { url: string; state: 'waiting' | 'delivered' | 'failed' | 'withdrawn' }>> {
  const rows = await db
    .selectFrom('trust_transfers')
    .innerJoin('trust_connections', 'trust_connections.id', 'trust_transfers.connection_id')
    .select(['trust_transfers.recipients', 'trust_transfers.state', 'trust_connections.partner_url'])
    .where('trust_transfers.delivery_id', '=', deliveryId)
    .execute();
  const states = new Map<string, { url: string; state: 'waiting' | 'delivered' | 'failed' | 'withdrawn' }>();
  for (const row of rows) {
    const state = row.state === 'pending' ? 'waiting' : (row.state as 'delivered' | 'failed' | 'withdrawn');
    for (const email of JSON.parse(row.recipients) as string[]) states.set(email, { url: row.partner_url, state });
  }
  return states;
}

/** A refusal the partner will repeat (403 refused, 400 invalid, 404, 409): the transfer fails at once. */
const isPermanent = (status: number | null) => status !== null && status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 425 && status !== 429;
class PermanentFailure extends Error {}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);

export function trustTransferJobs(app: FastifyInstance): Record<string, JobKind<TrustTransferPayload>> {
  const fail = async (transferId: string, error: unknown) => {
    await app.db.updateTable('trust_transfers').set({ state: 'failed', last_error: errorText(error), updated_at: Date.now() }).where('uuid', '=', transferId).where('state', '=', 'pending').execute();
  };
  return {
    [TRUST_TRANSFER_JOB]: {
      maxAttempts: TRANSFER_ATTEMPTS,
      retryDelayMs: TRANSFER_RETRY_DELAY_MS,
      async run({ transferId }, { signal }) {
        try {
          await pushOnce(app, transferId, signal);
        } catch (error) {
          if (error instanceof PermanentFailure) return fail(transferId, error);
          if (signal.aborted) throw error;
          await app.db.updateTable('trust_transfers').set({ last_error: errorText(error), updated_at: Date.now() }).where('uuid', '=', transferId).execute();
          throw error;
        }
      },
      giveUp: async ({ transferId }, error) => fail(transferId, error),
    },
  };
}

/**
 * One attempt: announce (the partner answers which parts it misses: all at first, fewer after an
 * interrupted attempt), upload those parts (a few at once) streamed from the blob store, complete.
 * Idempotent: the partner knows the transfer by its id; a transfer no longer pending is left alone.
 */
async function pushOnce(app: FastifyInstance, transferId: string, signal: AbortSignal): Promise<void> {
  const transfer = await app.db.selectFrom('trust_transfers').selectAll().where('uuid', '=', transferId).executeTakeFirst();
  if (!transfer || transfer.state !== 'pending') return;
  await app.db.updateTable('trust_transfers').set({ attempts: transfer.attempts + 1, updated_at: Date.now() }).where('id', '=', transfer.id).execute();
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', transfer.delivery_id).executeTakeFirstOrThrow();
  // The sender withdrew (deleted) it before the partner had it: nothing goes out.
  if (delivery.status !== 'sent') {
    await app.db.updateTable('trust_transfers').set({ state: 'withdrawn', updated_at: Date.now() }).where('id', '=', transfer.id).where('state', '=', 'pending').execute();
    return;
  }
  if (!reviewAllowsAccess(delivery.review_state)) throw new Error('The attachments are still being checked');
  const connection = await app.db.selectFrom('trust_connections').selectAll().where('id', '=', transfer.connection_id).executeTakeFirstOrThrow();
  if (connection.deleted_at !== null) throw new PermanentFailure('The trust connection was deleted');
  const sender = await app.db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', delivery.sender_id).executeTakeFirstOrThrow();
  const files = await app.db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery.id).where('status', '=', 'committed').orderBy('id').execute();
  const parts = await app.db
    .selectFrom('delivery_file_parts')
    .select(['file_id', 'part_index', 'sha256', 'size'])
    .where('file_id', 'in', files.length > 0 ? files.map((f) => f.id) : [-1])
    .orderBy('file_id')
    .orderBy('part_index')
    .execute();
  const announce: TrustDeliveryAnnounce = {
    type: 'delivery',
    transferId,
    sender: { email: sender.email, firstName: sender.first_name, lastName: sender.last_name },
    recipients: JSON.parse(transfer.recipients) as string[],
    subject: delivery.subject,
    body: delivery.body,
    securityLevel: securityLevelNumber(delivery.security_level) as 1 | 2 | 3 | 4,
    language: delivery.language,
    expiresAt: delivery.expires_at === null ? null : Number(delivery.expires_at),
    files: files.map((f) => ({
      fileId: f.uuid,
      name: f.name,
      size: Number(f.size),
      mimeType: f.mime_type,
      partSize: f.part_size,
      partCount: f.part_count,
      parts: parts.filter((p) => p.file_id === f.id).map((p) => p.sha256),
      ...(f.encrypted ? { encryption: { headerSha256: f.header_hash ?? '', leadingBytes: f.leading_bytes } } : {}),
    })),
    // Levels 3/4: the encrypted manifest, the sender's keys, and the copies its browser wrapped to the partner's keys.
    ...(isE2eLevel(delivery.security_level) ? { e2e: await e2eAnnounceOf(app, delivery, JSON.parse(transfer.recipients) as string[]) } : {}),
  };
  const call = async (path: string, body: unknown, part?: PartUpload) => {
    try {
      return await callPartner(app, connection, path, body, { signal, ...(part ? { part } : {}) });
    } catch (error) {
      if (error instanceof PartnerCallError) {
        const reason = (error.answer as { message?: unknown } | undefined)?.message;
        const message = `Partner server: ${error.message}${typeof reason === 'string' ? ` (${reason.slice(0, 200)})` : ''}`;
        throw isPermanent(error.status) ? new PermanentFailure(message) : new Error(message);
      }
      if (signal.aborted) throw error;
      const message = `The partner server could not be reached: ${outboundErrorText(error)}`;
      throw error instanceof OutboundRefusedError ? new PermanentFailure(message) : new Error(message);
    }
  };
  const state = TrustDeliveryStateSchema.parse(await call(TRUST_DELIVERY_PATHS.announce, announce));
  // A few parts in flight (as the browser uploads): this server reads and sends one while the partner
  // checks and stores another. The first failure stops taking new parts; the parts that arrived stay.
  const queue = [...state.missing];
  let failure: { error: unknown } | undefined;
  const sendParts = async () => {
    for (let missing = queue.shift(); missing && !failure; missing = queue.shift()) {
      const file = files.find((f) => f.uuid === missing.fileId);
      const part = parts.find((p) => p.file_id === file?.id && p.part_index === missing.index);
      if (!file || !part) throw new PermanentFailure('The partner asked for a part this delivery does not have');
      await call(TRUST_DELIVERY_PATHS.part(transferId, file.uuid, part.part_index), null, {
        sha256: part.sha256,
        size: part.size,
        stream: () => app.blobs.getStream(partKey(delivery.uuid, file.uuid, part.part_index)),
      });
    }
  };
  await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, () => sendParts().catch((error: unknown) => void (failure ??= { error }))));
  if (failure) throw failure.error;
  TrustDeliveryStateSchema.parse(await call(TRUST_DELIVERY_PATHS.complete(transferId), { type: 'complete', transferId }));
  const now = Date.now();
  const updated = await app.db.updateTable('trust_transfers').set({ state: 'delivered', delivered_at: now, last_error: null, updated_at: now }).where('id', '=', transfer.id).where('state', '=', 'pending').executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return;
  for (const email of announce.recipients) {
    const recipient = await app.db.selectFrom('delivery_recipients').select('id').where('delivery_id', '=', delivery.id).where('email', '=', email).executeTakeFirst();
    if (!recipient) continue;
    await app.db.updateTable('delivery_recipients').set({ notified_at: now }).where('id', '=', recipient.id).execute();
    await activity(app.db, delivery.id, 'notified', { actor: email, recipientId: recipient.id, detail: connection.partner_url });
  }
}
