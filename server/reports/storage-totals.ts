import { DAY_MS, type StorageArea } from '@shared/contract/reports';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Running totals of the storage report (migration 0029): what each area stores now, and what it
 * added per UTC day — so the report reads a few small rows instead of summing every file. Whoever
 * commits or removes stored bytes calls these in the same transaction as that change (deliveries:
 * server/deliveries/stored-files.ts); tests/integration/storage-totals.test.ts checks that the
 * totals equal the sums of the files.
 */
export interface StorageTotalsTable {
  area: StorageArea;
  /** Files (and their bytes) stored now. */
  files: number;
  bytes: number;
}

export interface StorageAddedDaysTable {
  area: StorageArea;
  /** UTC day number (epoch ms / 86 400 000) of the commits. */
  day: number;
  files: number;
  bytes: number;
}

export interface StorageTotalsTables {
  storage_totals: StorageTotalsTable;
  storage_added_days: StorageAddedDaysTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends StorageTotalsTables {}
}

/** `files` files of `bytes` bytes committed at `at` in `area`: stored now, and added that day. */
export async function addStored(db: Kysely<Database>, area: StorageArea, files: number, bytes: number, at: number): Promise<void> {
  if (files === 0) return;
  await db
    .updateTable('storage_totals')
    .set((eb) => ({ files: eb('files', '+', files), bytes: eb('bytes', '+', bytes) }))
    .where('area', '=', area)
    .execute();
  await db
    .insertInto('storage_added_days')
    .values({ area, day: Math.floor(at / DAY_MS), files, bytes })
    .onConflict((oc) =>
      oc.columns(['area', 'day']).doUpdateSet({ files: sql`storage_added_days.files + excluded.files`, bytes: sql`storage_added_days.bytes + excluded.bytes` }),
    )
    .execute();
}

/** `files` files of `bytes` bytes removed from `area` (what was added stays added). */
export async function removeStored(db: Kysely<Database>, area: StorageArea, files: number, bytes: number): Promise<void> {
  if (files === 0) return;
  await db
    .updateTable('storage_totals')
    .set((eb) => ({ files: eb('files', '-', files), bytes: eb('bytes', '-', bytes) }))
    .where('area', '=', area)
    .execute();
}
