// Stage 3: the inbox and sent lists (keyset pages, capped totals, search).
import { LIST_TOTAL_CAP, SEARCH_TOTAL_CAP, type DeliveryPage, type DeliverySummary } from '@shared/contract/deliveries';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { badRequest } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import type { Database } from '../db/schema';
import { fileTotals, summaryOf } from './detail';
import { type DeliveryRow } from './records';

/** LIKE pattern for a case-insensitive "contains", wildcards in the needle escaped. */
const containsPattern = (q: string) => `%${q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type ListQuery = { page: number; pageSize: number; cursor?: string | undefined; filter: 'all' | 'notDownloaded'; q?: string | undefined };

/** A list position: the sent time and delivery id of a row (the lists' order, newest first). */
interface ListKey {
  at: number;
  id: number;
}
const CURSOR_TEXT = /^(\d{1,16})\.(\d{1,16})$/;
/** Exported for the inbox bench, which starts deep in a list without walking there. */
export const encodeCursor = (key: ListKey) => Buffer.from(`${key.at}.${key.id}`, 'latin1').toString('base64url');
function decodeCursor(cursor: string): ListKey {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1')) : null;
  const key = { at: Number(match?.[1]), id: Number(match?.[2]) };
  if (!match || !Number.isSafeInteger(key.at) || !Number.isSafeInteger(key.id)) throw badRequest('The list cursor is not valid', { field: 'cursor' });
  return key;
}

/**
 * The shared tail of the inbox and sent lists. `counted` is the filtered rows (any shape) for
 * the total, `rows` the same rows with the list's columns; `key` names the columns of the order
 * (sent time, delivery id), which an index must serve so a page walks at most `pageSize + 1`
 * index entries after the cursor. The total stops at the cap + 1 rows: a big inbox is never
 * counted whole. File totals of the page come in one grouped query.
 */
async function pageOf<DB, TB extends keyof DB, CDB, CTB extends keyof CDB, R extends { id: number }>(
  db: Kysely<Database>,
  query: ListQuery,
  counted: SelectQueryBuilder<CDB, CTB, object>,
  rows: SelectQueryBuilder<DB, TB, R>,
  key: { at: string; id: string },
  toSummary: (row: R & DeliveryRow, totals: { count: number; size: number } | undefined) => DeliverySummary,
): Promise<DeliveryPage> {
  const at = sql.ref(key.at);
  const id = sql.ref(key.id);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const cap = query.q?.trim() ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  const capped = counted.select(sql<number>`1`.as('one')).limit(cap + 1);
  const { rows: countRows } = await sql<{ n: number | string }>`select count(*) as n from (${capped}) as c`.execute(db);
  const total = Number(countRows[0]?.n ?? 0);
  let pageQuery = rows.select([sql<number | string>`${at}`.as('k_at'), sql<number | string>`${id}`.as('k_id')]);
  // Row-value comparison: both databases turn it into a range on the (…, at, id) index.
  if (after) pageQuery = pageQuery.where(sql<boolean>`(${at}, ${id}) < (${after.at}, ${after.id})`);
  const fetched = (await pageQuery
    .orderBy(at, 'desc')
    .orderBy(id, 'desc')
    .limit(query.pageSize + 1)
    .offset(after ? 0 : (query.page - 1) * query.pageSize)
    .execute()) as unknown as Array<R & { k_at: number | string; k_id: number | string }>;
  const page = fetched.slice(0, query.pageSize);
  const last = page.at(-1);
  const nextCursor = fetched.length > query.pageSize && last ? encodeCursor({ at: Number(last.k_at), id: Number(last.k_id) }) : null;
  const totals = await fileTotals(db, page.map((r) => r.id), true);
  return {
    items: page.map((r) => toSummary(r as unknown as R & DeliveryRow, totals.get(r.id))),
    page: query.page,
    pageSize: query.pageSize,
    total: Math.min(total, cap),
    totalCapped: total > cap,
    nextCursor,
  };
}
/** Some recipient of `d` has not downloaded yet. */
const SOME_NOT_DOWNLOADED = sql<boolean>`exists (select 1 from delivery_recipients rn where rn.delivery_id = d.id and rn.downloaded_at is null)`;

export async function inbox({ app, user }: RequestContext, query: ListQuery): Promise<DeliveryPage> {
  const db = app.db;
  // `listed_at` is set while the delivery is sent and neither deleted nor removed (migration 0015),
  // so without a search the count reads the inbox index alone.
  let own = db.selectFrom('delivery_recipients as r').where('r.email', '=', user.email.toLowerCase()).where('r.listed_at', 'is not', null);
  if (query.filter === 'notDownloaded') own = own.where('r.downloaded_at', 'is', null);
  let joined = own
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .innerJoin('users as u', 'u.id', 'd.sender_id')
    .where('d.status', '=', 'sent');
  const searching = Boolean(query.q?.trim());
  if (searching) {
    const pattern = containsPattern(query.q!);
    // Wrapped in CASE so PostgreSQL estimates it as half the rows: for three LIKEs it guessed a handful
    // of matches in the whole inbox, read every delivery and sorted them (a page took 170 ms at
    // 20 000, 600 ms at 100 000; issue 35). With the estimate it walks the inbox index newest first and
    // stops at the page, as SQLite does anyway.
    joined = joined.where((eb) =>
      sql<boolean>`case when ${eb.or([
        eb(sql`lower(d.subject)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.first_name || ' ' || u.last_name)`, 'like', sql`${pattern} escape '\\'`),
      ])} then true else false end`,
    );
  }
  const rows = joined.selectAll('d').select(['r.downloaded_at as r_downloaded_at', 'u.email as u_email', 'u.first_name as u_first_name', 'u.last_name as u_last_name']);
  return pageOf(db, query, searching ? joined : own, rows, { at: 'r.listed_at', id: 'r.delivery_id' }, (r, totals) =>
    summaryOf(r, { email: r.u_email, first_name: r.u_first_name, last_name: r.u_last_name }, totals, r.r_downloaded_at !== null),
  );
}

export async function sentList({ app, user }: RequestContext, query: ListQuery): Promise<DeliveryPage> {
  const db = app.db;
  let base = db.selectFrom('deliveries as d').where('d.sender_id', '=', user.id).where('d.status', '=', 'sent');
  if (query.q?.trim()) {
    const pattern = containsPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(d.subject)`, 'like', sql`${pattern} escape '\\'`),
        eb.exists(
          eb
            .selectFrom('delivery_recipients as rq')
            .select('rq.id')
            .whereRef('rq.delivery_id', '=', 'd.id')
            .where(sql`rq.email`, 'like', sql`${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  if (query.filter === 'notDownloaded') base = base.where(SOME_NOT_DOWNLOADED);
  const rows = base.selectAll('d').select(SOME_NOT_DOWNLOADED.as('pending'));
  return pageOf(db, query, base, rows, { at: 'd.sent_at', id: 'd.id' }, (r, totals) => summaryOf(r, user, totals, !r.pending));
}
