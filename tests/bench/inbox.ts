// `npm run bench -- inbox`: the inbox list at scale (issue 5 "Proof"). Two real servers, one
// seeded with 100 000 deliveries and one with 1 000 (bulk inserts through Kysely into the real
// schema, tests/support/seed-deliveries.ts), measured in turns over HTTP so a busy machine slows
// both alike. Figures: p95 on the large one / on the small one.
//   - "database": the signed-in user's inbox holds the same 500 deliveries in both; the rest go
//     to other people. Measures whether the queries stay on indexes as the tables grow.
//   - "oneInbox": every delivery is addressed to the user. Keyset paging walks the inbox index
//     newest first and the total stops at LIST_TOTAL_CAP, so the first page and a deep page (by
//     cursor, 90 % down the list) cost the same at both sizes. A search (`q`) still checks rows
//     until it has counted the cap or run out, so it grows with the inbox (reported as measured).
import { encodeCursor } from '@server/deliveries/lists';
import { DELIVERY_PATHS, LIST_TOTAL_CAP, type DeliveryPage } from '@shared/contract/deliveries';
import { sql } from 'kysely';
import { createUserAsAdmin, signIn, signInAdmin, type Session } from '../integration/core-helpers';
import { seedSentDeliveries } from '../support/seed-deliveries';
import { startTestServer, type TestServer } from '../support/server';
import { figure, type Figure } from './report';

const USER = { email: 'reader@example.test', password: 'Good-Passw0rd' };
const SENDERS = 5;
/** Deliveries in the reader's inbox when the rest of the database belongs to others. */
const OWN_INBOX = 500;
/** One delivery in this many has the searched word in its subject. */
const SEARCH_EVERY = 10;
const SEARCH_WORD = 'invoice';
/** The deep page starts this far down the reader's inbox. */
const DEEP = 0.9;

export interface InboxBenchOptions {
  quick?: boolean;
}

interface Sizes {
  large: number;
  small: number;
  samples: number;
}

type Measure = 'first' | 'deep' | 'search';

interface Target {
  server: TestServer;
  session: Session;
  /** The reader's inbox size. */
  inbox: number;
  /** The cursor of the row DEEP down the reader's inbox. */
  deepCursor: string;
  times: Record<Measure, number[]>;
}

/** Seeds `total` sent deliveries (one file, one recipient each); `toReader` of them go to the reader. */
async function seed(server: TestServer, senderIds: number[], total: number, toReader: number): Promise<string[]> {
  const now = Date.now();
  // The reader's share is spread evenly over the whole range (newest ones included).
  const stride = total / toReader;
  const toReaderAt = (i: number) => Math.floor(i / stride) !== Math.floor((i + 1) / stride);
  // Every SEARCH_EVERY-th delivery of the reader's, and of everyone else's, has the word.
  const hasWord = (i: number) => (toReaderAt(i) ? Math.floor(i / stride) : i) % SEARCH_EVERY === 0;
  const uuids = await seedSentDeliveries(server.app.db, {
    count: total,
    senderId: (i) => senderIds[i % senderIds.length]!,
    recipient: (i) => (toReaderAt(i) ? USER.email : `someone${i % 997}@example.test`),
    sentAt: (i) => now - (total - i) * 60_000, // one a minute, newest last
    subject: (i) => (hasWord(i) ? `Monthly ${SEARCH_WORD} ${i}` : `Project report ${i}`),
    downloaded: (i) => i % 3 === 0,
  });
  return uuids.filter((_, i) => toReaderAt(i));
}

async function prepare(total: number, toReader: number): Promise<Target> {
  const server = await startTestServer();
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: USER.email });
  for (let i = 0; i < SENDERS; i++) await createUserAsAdmin(server, admin, { email: `sender${i}@example.test`, firstName: 'Sender', lastName: String(i) });
  const senders = await server.app.db.selectFrom('users').select('id').where('email', 'like', 'sender%').execute();
  const own = await seed(server, senders.map((s) => s.id), total, toReader);
  // Newest first, the row DEEP down: its position as a cursor (what a client holds after paging there).
  const deep = await server.app.db.selectFrom('deliveries').select(['id', 'sent_at']).where('uuid', '=', own[Math.floor(own.length * (1 - DEEP))]!).executeTakeFirstOrThrow();
  // Fresh statistics after a bulk load, as a maintained database has them.
  await sql`analyze`.execute(server.app.db);
  // The seeding blocked the event loop past the keep-alive timeout: let the overdue timers close
  // the idle sockets (client and server live in this process) before a request could reuse one.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    server,
    session: await signIn(server, USER.email, USER.password),
    inbox: toReader,
    deepCursor: encodeCursor({ at: Number(deep.sent_at), id: deep.id }),
    times: { first: [], deep: [], search: [] },
  };
}

async function timedGet(target: Target, query: string, check: (page: DeliveryPage) => boolean): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${target.server.url}/api/2${DELIVERY_PATHS.inbox}?${query}`, { headers: { cookie: target.session.cookie } });
  const page = (await response.json()) as DeliveryPage;
  const elapsed = performance.now() - started;
  if (response.status !== 200 || page.items.length === 0 || !check(page)) throw new Error(`inbox bench: unexpected answer ${response.status} ${JSON.stringify(page).slice(0, 200)}`);
  return elapsed;
}

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

/** The whole inbox's total as the list answers it: exact up to the cap. */
const totalOk = (inbox: number) => (page: DeliveryPage) => (inbox > LIST_TOTAL_CAP ? page.totalCapped && page.total === LIST_TOTAL_CAP : !page.totalCapped && page.total === inbox);

/** Both servers in turns (batches of 5), after a warm-up, so load on the machine hits both alike. */
async function measure(small: Target, large: Target, samples: number, measures: Measure[]): Promise<void> {
  for (let round = -2; round < samples / 5; round++) {
    for (const target of [small, large]) {
      for (let k = 0; k < 5; k++) {
        const took: Partial<Record<Measure, number>> = {};
        if (measures.includes('first')) took.first = await timedGet(target, 'pageSize=25', totalOk(target.inbox));
        if (measures.includes('deep')) took.deep = await timedGet(target, `pageSize=25&cursor=${target.deepCursor}`, (p) => totalOk(target.inbox)(p) && p.nextCursor !== null);
        if (measures.includes('search')) took.search = await timedGet(target, `pageSize=25&q=${SEARCH_WORD}`, (p) => p.total > 0 && p.total < target.inbox);
        if (round >= 0) for (const m of measures) target.times[m].push(took[m]!);
      }
    }
  }
}

const LABELS: Record<Measure, string> = {
  first: 'GET inbox, first page of 25',
  deep: `GET inbox, 25 from ${DEEP * 100} % down by cursor`,
  search: `GET inbox?q=${SEARCH_WORD} (1 in ${SEARCH_EVERY} subjects)`,
};

async function scenario(name: string, sizes: Sizes, toReader: (total: number) => number, measures: Measure[]): Promise<Figure[]> {
  const small = await prepare(sizes.small, toReader(sizes.small));
  const large = await prepare(sizes.large, toReader(sizes.large));
  try {
    await measure(small, large, sizes.samples, measures);
    const kind = small.server.app.databaseKind;
    return measures.map((what) =>
      figure({
        name: `inbox.${name}.${what}.p95`,
        value: round(p95(large.times[what])),
        unit: 'ms',
        baseline: round(p95(small.times[what])),
        target: 1.5,
        direction: 'max',
        note: `${LABELS[what]}: p95 with ${sizes.large} deliveries / with ${sizes.small} (ratio = value / baseline, lower is better); reader's inbox ${large.inbox} vs ${small.inbox}; ${sizes.samples} requests each over HTTP, ${kind}`,
      }),
    );
  } finally {
    await small.server.close();
    await large.server.close();
  }
}

export async function benchInbox(options: InboxBenchOptions = {}): Promise<Figure[]> {
  const sizes: Sizes = options.quick ? { large: 3_000, small: 300, samples: 20 } : { large: 100_000, small: 1_000, samples: 100 };
  return [
    ...(await scenario('database', sizes, (total) => Math.min(OWN_INBOX, total), ['first', 'search'])),
    ...(await scenario('oneInbox', sizes, (total) => total, ['first', 'deep', 'search'])),
  ];
}
