// `npm run bench -- inbox`: the inbox list at scale (issue 5 "Proof"). Two real servers, one
// seeded with 100 000 deliveries and one with 1 000 (bulk inserts through Kysely into the real
// schema), measured in turns over HTTP so a busy machine slows both alike. Figures: p95 of
// GET /deliveries/inbox (first page, and a search `q`) on the large one / on the small one.
//   - "database": the signed-in user's inbox holds the same 500 deliveries in both; the rest go
//     to other people. Measures whether the queries stay on indexes as the tables grow.
//   - "one inbox": every delivery is addressed to the user. The exact `total` of the page answer
//     counts them all and the newest-first page sorts them all, so this grows with the inbox
//     (reported as measured; staying flat needs keyset paging and a capped count, a contract
//     change). An index walking deliveries by `sent_at` would help this case but hurt the common
//     one (a few deliveries among many), and SQLite picks one plan for every user.
import { randomUUID } from 'node:crypto';
import { DELIVERY_PATHS, type DeliveryPage } from '@shared/contract/deliveries';
import { sql } from 'kysely';
import { createUserAsAdmin, signIn, signInAdmin, type Session } from '../integration/core-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { figure, type Figure } from './report';

const USER = { email: 'reader@example.test', password: 'Good-Passw0rd' };
const SENDERS = 5;
const INSERT_BATCH = 500;
/** Deliveries in the reader's inbox when the rest of the database belongs to others. */
const OWN_INBOX = 500;
/** One delivery in this many has the searched word in its subject. */
const SEARCH_EVERY = 10;
const SEARCH_WORD = 'invoice';

export interface InboxBenchOptions {
  quick?: boolean;
}

interface Sizes {
  large: number;
  small: number;
  samples: number;
}

/** Seeds `total` sent deliveries (one file, one recipient each); `toReader` of them go to the reader. */
async function seed(server: TestServer, senderIds: number[], total: number, toReader: number): Promise<void> {
  const db = server.app.db;
  const now = Date.now();
  // The reader's share is spread evenly over the whole range (newest ones included).
  const stride = total / toReader;
  const toReaderAt = (i: number) => Math.floor(i / stride) !== Math.floor((i + 1) / stride);
  // Every SEARCH_EVERY-th delivery of the reader's, and of everyone else's, has the word.
  const hasWord = (i: number) => (toReaderAt(i) ? Math.floor(i / stride) : i) % SEARCH_EVERY === 0;
  for (let start = 0; start < total; start += INSERT_BATCH) {
    const count = Math.min(INSERT_BATCH, total - start);
    await db.transaction().execute(async (trx) => {
      const deliveries = await trx
        .insertInto('deliveries')
        .values(
          Array.from({ length: count }, (_, k) => {
            const i = start + k;
            const sentAt = now - (total - i) * 60_000; // one a minute, newest last
            return {
              uuid: randomUUID(),
              sender_id: senderIds[i % senderIds.length]!,
              status: 'sent',
              subject: hasWord(i) ? `Monthly ${SEARCH_WORD} ${i}` : `Project report ${i}`,
              body: 'Seeded for the inbox bench.',
              security_level: 10,
              language: 'en',
              validity_days: 90,
              expires_at: sentAt + 90 * 86_400_000,
              review_state: 'notReviewed',
              manifest: null,
              created_at: sentAt,
              sent_at: sentAt,
              deleted_at: null,
              purged_at: null,
            };
          }),
        )
        .returning('id')
        .execute();
      await trx
        .insertInto('delivery_recipients')
        .values(
          deliveries.map(({ id }, k) => ({
            uuid: randomUUID(),
            delivery_id: id,
            email: toReaderAt(start + k) ? USER.email : `someone${(start + k) % 997}@example.test`,
            kind: 'recipient',
            token_hash: null,
            notified_at: now,
            downloaded_at: (start + k) % 3 === 0 ? now : null,
            decrypted_at: null,
            removed_at: null,
            created_at: now,
          })),
        )
        .execute();
      await trx
        .insertInto('delivery_files')
        .values(
          deliveries.map(({ id }, k) => ({
            uuid: randomUUID(),
            delivery_id: id,
            name: `report-${start + k}.pdf`,
            size: 100_000 + k,
            mime_type: 'application/pdf',
            part_size: 4_198_400,
            part_count: 1,
            status: 'committed',
            encrypted: 0,
            header_hash: null,
            created_at: now,
            committed_at: now,
          })),
        )
        .execute();
    });
  }
}

interface Target {
  server: TestServer;
  session: Session;
  times: { first: number[]; search: number[] };
}

async function prepare(total: number, toReader: number): Promise<Target> {
  const server = await startTestServer();
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: USER.email });
  for (let i = 0; i < SENDERS; i++) await createUserAsAdmin(server, admin, { email: `sender${i}@example.test`, firstName: 'Sender', lastName: String(i) });
  const senders = await server.app.db.selectFrom('users').select('id').where('email', 'like', 'sender%').execute();
  await seed(server, senders.map((s) => s.id), total, toReader);
  // Fresh statistics after a bulk load, as a maintained database has them.
  await sql`analyze`.execute(server.app.db);
  // The seeding blocked the event loop past the keep-alive timeout: let the overdue timers close
  // the idle sockets (client and server live in this process) before a request could reuse one.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { server, session: await signIn(server, USER.email, USER.password), times: { first: [], search: [] } };
}

async function timedGet(target: Target, query: string, expectTotal: (total: number) => boolean): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${target.server.url}/api/2${DELIVERY_PATHS.inbox}?${query}`, { headers: { cookie: target.session.cookie } });
  const page = (await response.json()) as DeliveryPage;
  const elapsed = performance.now() - started;
  if (response.status !== 200 || page.items.length === 0 || !expectTotal(page.total)) throw new Error(`inbox bench: unexpected answer ${response.status} ${JSON.stringify(page).slice(0, 200)}`);
  return elapsed;
}

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

/** Both servers in turns (batches of 5), after a warm-up, so load on the machine hits both alike. */
async function measure(small: Target, large: Target, samples: number, inbox: { small: number; large: number }): Promise<void> {
  const searchQuery = `page=1&pageSize=25&q=${SEARCH_WORD}`;
  for (let round = -2; round < samples / 5; round++) {
    for (const [target, size] of [
      [small, inbox.small],
      [large, inbox.large],
    ] as const) {
      for (let k = 0; k < 5; k++) {
        const first = await timedGet(target, 'page=1&pageSize=25', (t) => t === size);
        const search = await timedGet(target, searchQuery, (t) => t > 0 && t < size);
        if (round >= 0) {
          target.times.first.push(first);
          target.times.search.push(search);
        }
      }
    }
  }
}

async function scenario(name: string, sizes: Sizes, toReader: (total: number) => number): Promise<Figure[]> {
  const small = await prepare(sizes.small, toReader(sizes.small));
  const large = await prepare(sizes.large, toReader(sizes.large));
  try {
    await measure(small, large, sizes.samples, { small: toReader(sizes.small), large: toReader(sizes.large) });
    const kind = small.server.app.databaseKind;
    const make = (what: 'first' | 'search', label: string) =>
      figure({
        name: `inbox.${name}.${what}.p95`,
        value: round(p95(large.times[what])),
        unit: 'ms',
        baseline: round(p95(small.times[what])),
        target: 1.5,
        direction: 'max',
        note: `${label}: p95 with ${sizes.large} deliveries / with ${sizes.small} (ratio = value / baseline, lower is better); reader's inbox ${toReader(sizes.large)} vs ${toReader(sizes.small)}; ${sizes.samples} requests each over HTTP, ${kind}`,
      });
    return [make('first', 'GET inbox, first page of 25'), make('search', `GET inbox?q=${SEARCH_WORD} (1 in ${SEARCH_EVERY} subjects)`)];
  } finally {
    await small.server.close();
    await large.server.close();
  }
}

export async function benchInbox(options: InboxBenchOptions = {}): Promise<Figure[]> {
  const sizes: Sizes = options.quick ? { large: 10_000, small: 1_000, samples: 40 } : { large: 100_000, small: 1_000, samples: 100 };
  return [
    ...(await scenario('database', sizes, (total) => Math.min(OWN_INBOX, total))),
    ...(await scenario('oneInbox', sizes, (total) => total)),
  ];
}
