// Inbox and sent lists paged by cursor (issue 5): walks without duplicates or gaps while new
// deliveries arrive, the capped total, filter and search with a cursor, bad cursors, and never
// anyone else's rows. Runs on SQLite and (with-postgres) PostgreSQL.
import { LIST_TOTAL_CAP, SEARCH_TOTAL_CAP, type DeliveryDetail, type DeliveryPage } from '@shared/contract/deliveries';
import { seedSentDeliveries } from '@tests/support/seed-deliveries';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

let server: TestServer;
let alice: Session; // sender
let bob: Session; // reader
let carol: Session; // someone else, sender and reader
const ids: Record<string, number> = {};

const api = (path: string) => `/api/2${path}`;

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Sends a message-only delivery through the real routes; returns its uuid. */
async function sendMessage(session: Session, to: string, subject: string): Promise<string> {
  const draft = await json<DeliveryDetail>(await call(server, session, 'POST', api('/deliveries'), { recipients: [to], subject, body: 'Hello.', securityLevel: 10 }), 201);
  await json<DeliveryDetail>(await call(server, session, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)));
  return draft.deliveryUuid;
}

/** Every page of a list by cursor; `between` runs after each page (to change the list meanwhile). */
async function walk(session: Session, list: 'inbox' | 'sent', params: string, between?: (pageNo: number) => Promise<void>) {
  const seen: string[] = [];
  const pages: DeliveryPage[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `${params}${cursor ? `&cursor=${cursor}` : ''}`;
    const page: DeliveryPage = await json<DeliveryPage>(await call(server, session, 'GET', api(`/deliveries/${list}?${query}`)));
    pages.push(page);
    seen.push(...page.items.map((i) => i.deliveryUuid));
    cursor = page.nextCursor;
    if (between) await between(pages.length);
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return { seen, pages };
}

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const [email, first] of [
    ['alice@example.test', 'Alice'],
    ['bob@example.test', 'Bob'],
    ['carol@example.test', 'Carol'],
  ] as const) {
    await createUserAsAdmin(server, admin, { email, firstName: first, lastName: 'Lister' });
    ids[first] = (await server.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  }
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
  bob = await signIn(server, 'bob@example.test', 'Good-Passw0rd');
  carol = await signIn(server, 'carol@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

describe('lists by cursor', () => {
  const base = Date.now() - 86_400_000;
  let bobs: string[] = []; // Bob's inbox, newest first
  let alices: string[] = []; // Alice's sent list, newest first

  beforeAll(async () => {
    // 30 to Bob, 4 of them in the same millisecond (the id breaks the tie), every 3rd downloaded,
    // every 5th about "invoice"; 10 to Carol from Alice and 10 from Carol to Bob's neighbour.
    const sentAt = (i: number) => (i >= 10 && i < 14 ? base + 10_000 : base + i * 1000);
    const toBob = await seedSentDeliveries(server.app.db, {
      count: 30,
      senderId: () => ids.Alice!,
      recipient: () => 'bob@example.test',
      sentAt,
      subject: (i) => (i % 5 === 0 ? `Monthly invoice ${i}` : `Report ${i}`),
      downloaded: (i) => i % 3 === 0,
    });
    const toCarol = await seedSentDeliveries(server.app.db, {
      count: 10,
      senderId: () => ids.Alice!,
      recipient: () => 'carol@example.test',
      sentAt: (i) => base + 500 + i * 3000,
      subject: (i) => `Monthly invoice for Carol ${i}`,
    });
    await seedSentDeliveries(server.app.db, { count: 10, senderId: () => ids.Carol!, recipient: () => 'dave@example.test', sentAt: (i) => base + 700 + i * 2000, subject: (i) => `Monthly invoice from Carol ${i}` });
    // Newest first: by sent time, then by id (seeded in index order, so the later index wins a tie).
    const order = (uuids: string[], at: (i: number) => number) =>
      uuids
        .map((uuid, i) => ({ uuid, i, at: at(i) }))
        .sort((a, b) => b.at - a.at || b.i - a.i)
        .map((e) => e.uuid);
    bobs = order(toBob, sentAt);
    const both = [...toBob.map((u, i) => ({ u, at: sentAt(i), k: i })), ...toCarol.map((u, i) => ({ u, at: base + 500 + i * 3000, k: 30 + i }))];
    alices = both.sort((a, b) => b.at - a.at || b.k - a.k).map((e) => e.u);
  });

  it('walks the whole inbox and sent list without duplicates or gaps while new deliveries arrive', async () => {
    const arrived: string[] = [];
    const { seen, pages } = await walk(bob, 'inbox', 'pageSize=4', async (pageNo) => {
      if (pageNo <= 2) arrived.push(await sendMessage(alice, 'bob@example.test', `Arrived while paging ${pageNo}`));
    });
    expect(seen).toEqual(bobs);
    expect(pages.every((p) => p.items.length <= 4 && p.pageSize === 4 && !p.totalCapped)).toBe(true);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    // The total follows the arrivals; the walk did not (they are newer than its position).
    expect(pages[0]!.total).toBe(30);
    expect(pages.at(-1)!.total).toBe(32);
    const fresh = await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?pageSize=4')));
    expect(fresh.items.slice(0, 2).map((i) => i.deliveryUuid)).toEqual([...arrived].reverse());
    expect(fresh.items[0]).toMatchObject({ sender: { email: 'alice@example.test', name: 'Alice Lister' }, downloaded: false });

    const sent = await walk(alice, 'sent', 'pageSize=7');
    expect(sent.seen).toEqual([...[...arrived].reverse(), ...alices]);
    expect(new Set(sent.seen).size).toBe(sent.seen.length);
    // Page numbers still work without a cursor and agree with the cursor walk.
    const third = await json<DeliveryPage>(await call(server, alice, 'GET', api('/deliveries/sent?pageSize=7&page=3')));
    expect(third.items.map((i) => i.deliveryUuid)).toEqual(sent.seen.slice(14, 21));
    expect(third.nextCursor).toBe(sent.pages[2]!.nextCursor);
    for (const uuid of arrived) expect((await call(server, alice, 'DELETE', api(`/deliveries/${uuid}`))).status).toBe(204);
  });

  it('keeps the filter and the search across pages', async () => {
    const notDownloaded = await walk(bob, 'inbox', 'pageSize=3&filter=notDownloaded');
    const downloadedIdx = new Set(Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 === 0));
    expect(notDownloaded.seen).toHaveLength(30 - downloadedIdx.size);
    expect(notDownloaded.pages.every((p) => p.items.every((i) => !i.downloaded) && p.total === 20)).toBe(true);
    expect(notDownloaded.seen).toEqual(bobs.filter((u) => notDownloaded.seen.includes(u)));

    const invoices = await walk(bob, 'inbox', 'pageSize=2&q=INVOICE');
    expect(invoices.seen).toHaveLength(6);
    expect(invoices.pages.every((p) => p.total === 6 && p.items.every((i) => i.subject.startsWith('Monthly invoice ')))).toBe(true);
    expect(invoices.seen).toEqual(bobs.filter((u) => invoices.seen.includes(u)));

    const both = await walk(bob, 'inbox', 'pageSize=1&q=invoice&filter=notDownloaded');
    // i % 5 === 0 and i % 3 !== 0 among 0..29: 5, 10, 20, 25.
    expect(both.seen).toHaveLength(4);
    expect(both.pages.every((p) => p.items.every((i) => !i.downloaded && i.subject.includes('invoice')))).toBe(true);

    const sentToCarol = await walk(alice, 'sent', 'pageSize=4&q=carol');
    expect(sentToCarol.seen).toHaveLength(10);
  });

  it("never shows someone else's deliveries, not even with their cursor", async () => {
    const carolsInbox = await walk(carol, 'inbox', 'pageSize=3');
    expect(carolsInbox.seen).toHaveLength(10);
    expect(carolsInbox.seen.some((u) => bobs.includes(u))).toBe(false);
    const bobFirst = await json<DeliveryPage>(await call(server, bob, 'GET', api('/deliveries/inbox?pageSize=2')));
    const withBobsCursor = await json<DeliveryPage>(await call(server, carol, 'GET', api(`/deliveries/inbox?pageSize=50&cursor=${bobFirst.nextCursor}`)));
    expect(withBobsCursor.items.some((i) => bobs.includes(i.deliveryUuid))).toBe(false);
    // Carol's own sent list holds only what she sent (to Dave), not Alice's.
    const carolsSent = await walk(carol, 'sent', 'pageSize=4');
    expect(carolsSent.seen).toHaveLength(10);
    expect(carolsSent.seen.some((u) => alices.includes(u))).toBe(false);
    expect((await call(server, null, 'GET', api(`/deliveries/inbox?cursor=${bobFirst.nextCursor}`))).status).toBe(401);
  });

  it('answers a cursor that is not ours with 400 ValidationException', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of ['%2B%2B%2B', 'not-a-cursor', b64('12.x'), b64('-1.5'), b64('1.2.3'), b64(`${'9'.repeat(17)}.1`), 'x'.repeat(101), '']) {
      for (const list of ['inbox', 'sent']) {
        const error = await expectBackendError(await call(server, bob, 'GET', api(`/deliveries/${list}?cursor=${cursor}`)), 400, 'ValidationException');
        expect(error.message).toBeTruthy();
      }
    }
  });
});

it(`counts at most ${LIST_TOTAL_CAP} rows (${SEARCH_TOTAL_CAP} when searching) and says when there are more`, async () => {
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'heavy@example.test' });
  const heavy = await signIn(server, 'heavy@example.test', 'Good-Passw0rd');
  const start = Date.now() - 30 * 86_400_000;
  const uuids = await seedSentDeliveries(server.app.db, {
    count: LIST_TOTAL_CAP + 1,
    senderId: () => ids.Carol!,
    recipient: () => 'heavy@example.test',
    sentAt: (i) => start + i * 1000,
    subject: (i) => `Bulk ${i}`,
    downloaded: (i) => i % 2 === 0,
  });
  const first = await json<DeliveryPage>(await call(server, heavy, 'GET', api('/deliveries/inbox')));
  expect(first).toMatchObject({ total: LIST_TOTAL_CAP, totalCapped: true, page: 1, pageSize: 25 });
  expect(first.items.map((i) => i.deliveryUuid)).toEqual(uuids.slice(-25).reverse());
  // A deep page by cursor: the next 25 after the first.
  const second = await json<DeliveryPage>(await call(server, heavy, 'GET', api(`/deliveries/inbox?cursor=${first.nextCursor}&page=2`)));
  expect(second.items.map((i) => i.deliveryUuid)).toEqual(uuids.slice(-50, -25).reverse());
  expect(second.page).toBe(2);
  // Exactly at the cap: not capped. Removing one from the inbox brings it there.
  expect((await call(server, heavy, 'DELETE', api(`/deliveries/${uuids.at(-1)}`))).status).toBe(204);
  expect(await json<DeliveryPage>(await call(server, heavy, 'GET', api('/deliveries/inbox?pageSize=1')))).toMatchObject({ total: LIST_TOTAL_CAP, totalCapped: false });
  expect(await json<DeliveryPage>(await call(server, heavy, 'GET', api('/deliveries/inbox?pageSize=1&filter=notDownloaded')))).toMatchObject({ total: LIST_TOTAL_CAP / 2, totalCapped: false });
  // The sender's list is capped the same way (Carol sent these plus ten).
  expect(await json<DeliveryPage>(await call(server, carol, 'GET', api('/deliveries/sent?pageSize=1')))).toMatchObject({ total: LIST_TOTAL_CAP, totalCapped: true });
  // A search counts up to its own, lower cap; below it, exactly ("Bulk 10", "Bulk 100" … "Bulk 109").
  expect(await json<DeliveryPage>(await call(server, heavy, 'GET', api('/deliveries/inbox?pageSize=1&q=bulk')))).toMatchObject({ total: SEARCH_TOTAL_CAP, totalCapped: true });
  expect(await json<DeliveryPage>(await call(server, heavy, 'GET', api('/deliveries/inbox?pageSize=1&q=bulk%2010')))).toMatchObject({ total: 11, totalCapped: false });
  expect(await json<DeliveryPage>(await call(server, carol, 'GET', api('/deliveries/sent?pageSize=1&q=heavy')))).toMatchObject({ total: SEARCH_TOTAL_CAP, totalCapped: true });
});
