// `npm run bench -- reports`: the reports at scale (issue 17 §3: "a report over 1 M deliveries,
// p95 ≤ 1 s on this machine"). Two real servers, one seeded with 1 000 000 sent deliveries (one
// recipient each, one committed file each, a download for every other one) spread over one year,
// and one with 10 000 the same way; every report is asked over HTTP for that whole year (the
// longest range, so every row counts), in turns on both servers so a busy machine slows both
// alike. Figures per report: p95 on the large server (target ≤ 1 000 ms), baseline the p95 on
// the small one (ratio = value / baseline; the note also gives value / 1 000 ms).
//
// Seeding is one INSERT … SELECT over a recursive row generator per table (SQLite and PostgreSQL
// alike), so a million rows take seconds, not minutes. Sizes: `--quick` 5 000 / 1 000;
// KUVERT_BENCH_REPORTS_SIZE=<n> sets the large size (try it small first on a shared machine).
import { REPORT_ENDPOINTS } from '@shared/contract/endpoints/reports';
import { DAY_MS, reportDayOf } from '@shared/contract/reports';
import { SECURITY_LEVEL_ORDER } from '@shared/contract/security-levels';
import { sql } from 'kysely';
import { signInAdmin, type Session } from '../integration/core-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { figure, type Figure } from './report';

export interface ReportsBenchOptions {
  quick?: boolean;
}

const TARGET_MS = 1_000;
const YEAR_DAYS = 366;
const REPORTS = [
  ['deliveries', REPORT_ENDPOINTS.deliveries.path],
  ['downloads', REPORT_ENDPOINTS.downloads.path],
  ['activeUsers', REPORT_ENDPOINTS.activeUsers.path],
  ['storage', REPORT_ENDPOINTS.storage.path],
] as const;
type ReportName = (typeof REPORTS)[number][0];

interface Target {
  server: TestServer;
  session: Session;
  size: number;
  times: Record<ReportName, number[]>;
}

/** `size` sent deliveries evenly over [start, start + 366 days), with recipients, files and downloads. */
async function seed(server: TestServer, size: number, start: number): Promise<void> {
  const db = server.app.db;
  const admin = await db.selectFrom('users').select('id').where('email', '=', server.admin.email).executeTakeFirstOrThrow();
  const step = Math.floor((YEAR_DAYS * DAY_MS) / size);
  const levels = SECURITY_LEVEL_ORDER;
  const level = sql.raw(`case i % 4 ${levels.map((l, k) => `when ${k} then ${l}`).join(' ')} end`);
  // bigint: i × step passes 2³¹ on PostgreSQL.
  const at = sql`${sql.lit(start)} + cast(i as bigint) * ${sql.lit(step)}`;
  await db.transaction().execute(async (trx) => {
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${sql.lit(size - 1)})
      insert into deliveries (uuid, sender_id, status, subject, body, security_level, language, validity_days, expires_at, review_state, manifest, created_at, sent_at, deleted_at, purged_at, sent_day, recipient_count)
      select 'bench-' || i, ${sql.lit(admin.id)}, 'sent', 'Report bench', '', ${level}, 'en', 90, ${at} + ${sql.lit(90 * DAY_MS)}, 'notReviewed', null, ${at}, ${at}, null, null, (${at}) / ${sql.lit(DAY_MS)}, 1 from n`.execute(trx);
    await sql`insert into delivery_recipients (uuid, delivery_id, email, kind, token_hash, notified_at, downloaded_at, decrypted_at, removed_at, listed_at, created_at)
      select 'bench-r-' || id, id, 'r' || (id % 997) || '@example.test', 'recipient', null, sent_at, null, null, null, sent_at, sent_at from deliveries`.execute(trx);
    await sql`insert into delivery_files (uuid, delivery_id, name, size, mime_type, part_size, part_count, status, encrypted, header_hash, created_at, committed_at, stored)
      select 'bench-f-' || id, id, 'report.pdf', 100000 + id % 1000, 'application/pdf', 4198400, 1, 'committed', 0, null, sent_at, sent_at, 1 from deliveries`.execute(trx);
    // As the sends write them (migration 0029).
    await sql`insert into sender_days (day, sender_id) select distinct sent_day, sender_id from deliveries`.execute(trx);
    // As the commits count them: the storage report's running totals (migration 0029).
    await sql`update storage_totals set files = (select count(*) from delivery_files), bytes = (select sum(size) from delivery_files) where area = 'secureMails'`.execute(trx);
    await sql`insert into storage_added_days (area, day, files, bytes)
      select 'secureMails', committed_at / ${sql.lit(DAY_MS)}, count(*), sum(size) from delivery_files group by committed_at / ${sql.lit(DAY_MS)}`.execute(trx);
    // As the download writes them: the delivery's level and the UTC day (migration 0029).
    await sql`insert into delivery_activity (delivery_id, kind, actor, recipient_id, detail, created_at, security_level, day)
      select r.delivery_id, 'downloaded', r.email, r.id, 'report.pdf', r.created_at + 60000, d.security_level, (r.created_at + 60000) / ${sql.lit(DAY_MS)}
      from delivery_recipients r join deliveries d on d.id = r.delivery_id where r.delivery_id % 2 = 0`.execute(trx);
  });
  // Fresh statistics after a bulk load, as a maintained database has them.
  await sql`analyze`.execute(db);
}

async function prepare(size: number, start: number): Promise<Target> {
  const server = await startTestServer();
  const session = await signInAdmin(server);
  await seed(server, size, start);
  // The seeding blocked the event loop past the keep-alive timeout: let the idle sockets close first.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { server, session, size, times: { deliveries: [], downloads: [], activeUsers: [], storage: [] } };
}

async function timedReport(target: Target, path: string, query: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${target.server.url}/api/2${path}?${query}`, { headers: { cookie: target.session.cookie } });
  const body = (await response.json()) as { totals?: { sent?: number } };
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`reports bench: ${path} answered ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  if (path === REPORT_ENDPOINTS.deliveries.path && body.totals?.sent !== target.size) throw new Error(`reports bench: ${target.size} deliveries seeded, the report counts ${body.totals?.sent}`);
  return elapsed;
}

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

export async function benchReports(options: ReportsBenchOptions = {}): Promise<Figure[]> {
  const fromEnv = Number(process.env.KUVERT_BENCH_REPORTS_SIZE);
  const large = Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : options.quick ? 5_000 : 1_000_000;
  const small = Math.min(options.quick ? 1_000 : 10_000, large);
  const samples = options.quick ? 5 : 20;
  // A whole leap-year-long range ending yesterday.
  const start = Math.floor(Date.now() / DAY_MS) * DAY_MS - YEAR_DAYS * DAY_MS;
  const query = `from=${reportDayOf(start)}&to=${reportDayOf(start + (YEAR_DAYS - 1) * DAY_MS)}`;
  const smallTarget = await prepare(small, start);
  const largeTarget = await prepare(large, start);
  try {
    for (let turn = -1; turn < samples; turn++) {
      for (const target of [smallTarget, largeTarget]) {
        for (const [name, path] of REPORTS) {
          const took = await timedReport(target, path, query);
          if (turn >= 0) target.times[name].push(took);
        }
      }
    }
    const kind = smallTarget.server.app.databaseKind;
    return REPORTS.map(([name]) => {
      const value = round(p95(largeTarget.times[name]));
      return figure({
        name: `reports.${name}.p95`,
        value,
        unit: 'ms',
        baseline: round(p95(smallTarget.times[name])),
        target: TARGET_MS,
        targetOn: 'value',
        direction: 'max',
        note: `GET /reports/${name} over ${YEAR_DAYS} days: p95 with ${large} deliveries (target ≤ ${TARGET_MS} ms; value / target = ${round(value / TARGET_MS)}), baseline the p95 with ${small} (ratio = value / baseline); ${samples} requests each over HTTP, ${kind}`,
      });
    });
  } finally {
    await smallTarget.server.close();
    await largeTarget.server.close();
  }
}
