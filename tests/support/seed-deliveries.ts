import { randomUUID } from 'node:crypto';
import type { Database } from '@server/db/schema';
import { recordSenderDay } from '@server/reports/sender-days';
import { addStored } from '@server/reports/storage-totals';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { SecurityLevel } from '@shared/contract/deliveries';
import type { Kysely } from 'kysely';

export interface SeedSpec {
  /** How many sent deliveries (one recipient and one committed file each). */
  count: number;
  senderId: (i: number) => number;
  /** The (lower-cased) recipient address of delivery `i`. */
  recipient: (i: number) => string;
  /** Epoch ms the delivery was sent. */
  sentAt: (i: number) => number;
  subject: (i: number) => string;
  downloaded?: (i: number) => boolean;
  /** The security level of delivery `i`; default level 2. */
  level?: (i: number) => SecurityLevel;
  /** Further recipient addresses of delivery `i` (one more recipient row each). */
  moreRecipients?: (i: number) => string[];
}

const BATCH = 500;

/**
 * Bulk-inserts sent deliveries straight into the real schema, as the send route leaves them
 * (recipient rows listed in the inbox, migration 0015): for lists far bigger than sending
 * through HTTP allows. Returns the delivery uuids in `i` order.
 */
export async function seedSentDeliveries(db: Kysely<Database>, spec: SeedSpec): Promise<string[]> {
  const uuids: string[] = [];
  for (let start = 0; start < spec.count; start += BATCH) {
    const indexes = Array.from({ length: Math.min(BATCH, spec.count - start) }, (_, k) => start + k);
    await db.transaction().execute(async (trx) => {
      const deliveries = await trx
        .insertInto('deliveries')
        .values(
          indexes.map((i) => {
            const sentAt = spec.sentAt(i);
            return {
              uuid: randomUUID(),
              sender_id: spec.senderId(i),
              status: 'sent',
              subject: spec.subject(i),
              body: 'Seeded.',
              security_level: spec.level?.(i) ?? SECURITY_LEVELS.LEVEL_2,
              language: 'en',
              validity_days: 90,
              expires_at: sentAt + 90 * 86_400_000,
              review_state: 'notReviewed',
              manifest: null,
              created_at: sentAt,
              sent_at: sentAt,
              deleted_at: null,
              purged_at: null,
              // As the send writes them (migration 0025, the reports).
              sent_day: Math.floor(sentAt / 86_400_000),
              recipient_count: 1 + (spec.moreRecipients?.(i).length ?? 0),
            };
          }),
        )
        .returning(['id', 'uuid'])
        .execute();
      uuids.push(...deliveries.map((d) => d.uuid));
      await trx
        .insertInto('delivery_recipients')
        .values(
          deliveries.flatMap(({ id }, k) => [spec.recipient(indexes[k]!), ...(spec.moreRecipients?.(indexes[k]!) ?? [])].map((email) => ({ id, k, email }))).map(({ id, k, email }) => ({
            uuid: randomUUID(),
            delivery_id: id,
            email,
            kind: 'recipient',
            token_hash: null,
            notified_at: spec.sentAt(indexes[k]!),
            downloaded_at: spec.downloaded?.(indexes[k]!) ? spec.sentAt(indexes[k]!) : null,
            decrypted_at: null,
            removed_at: null,
            listed_at: spec.sentAt(indexes[k]!),
            created_at: spec.sentAt(indexes[k]!),
          })),
        )
        .execute();
      await trx
        .insertInto('delivery_files')
        .values(
          deliveries.map(({ id }, k) => ({
            uuid: randomUUID(),
            delivery_id: id,
            name: `report-${indexes[k]}.pdf`,
            size: 100_000 + k,
            mime_type: 'application/pdf',
            part_size: 4_198_400,
            part_count: 1,
            status: 'committed',
            encrypted: 0,
            header_hash: null,
            created_at: spec.sentAt(indexes[k]!),
            committed_at: spec.sentAt(indexes[k]!),
            stored: 1,
          })),
        )
        .execute();
      // As the commit counts them: the storage report's running totals (migration 0029).
      for (const [k, i] of indexes.entries()) await addStored(trx, 'secureMails', 1, 100_000 + k, spec.sentAt(i));
      for (const i of indexes) await recordSenderDay(trx, spec.senderId(i), spec.sentAt(i));
    });
  }
  return uuids;
}
