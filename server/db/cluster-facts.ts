import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Facts every server on one database must agree on (migration 0030), checked at start: the first
 * server records its value, every later one compares its own with it. Values are never secrets
 * (store a fingerprint, not the thing).
 */
export interface ClusterFactsTable {
  name: string;
  value: string;
  created_at: number;
}

declare module './schema' {
  interface Database {
    cluster_facts: ClusterFactsTable;
  }
}

/** Records `value` unless a server recorded one before; answers the recorded value (ours or the earlier one). */
export async function recordClusterFact(db: Kysely<Database>, name: string, value: string): Promise<string> {
  await db
    .insertInto('cluster_facts')
    .values({ name, value, created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('cluster_facts').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
