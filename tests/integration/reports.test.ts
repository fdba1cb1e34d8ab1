import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import type { DeliveryUploadFile, SecurityLevel } from '@shared/contract/deliveries';
import { REPORT_ENDPOINTS } from '@shared/contract/endpoints/reports';
import { DAY_MS, type ActiveUsersReport, type DeliveriesReport, type DownloadsReport, type StorageReport } from '@shared/contract/reports';
import { sweepDeliveries } from '@server/deliveries/cleanup';
import { seedSentDeliveries } from '@tests/support/seed-deliveries';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Administration › Reports (server/reports): the figures of seeded deliveries, downloads and
 * active days at known times and levels, exactly; the CSV shapes; range validation; who may see
 * them (ROLE_ADMIN, config.group.reporting) and who may not. On SQLite, and on PostgreSQL when
 * KUVERT_TEST_DATABASE_URL is set.
 */

let server: TestServer;
let admin: Session;
let reporter: Session; // config.group.reporting only
let userAdmin: Session; // ROLE_USER_ADMIN: users, not reports
let plain: Session;
const ids: Record<string, number> = {};

const { LEVEL_1, LEVEL_3, LEVEL_4 } = SECURITY_LEVELS;
const at = (iso: string) => Date.parse(iso);
const api = (path: string, range: string) => `/api/2${path}?${range}`;
const MARCH = 'from=2025-03-01&to=2025-03-03';

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Deliveries at the edges of the range (index: [sent at, level, sender, recipients]). */
const SEEDED: Array<[string, SecurityLevel, string, number]> = [
  ['2025-02-28T23:59:59.999Z', LEVEL_1, 'alice', 1], // the day before: outside
  ['2025-03-01T00:00:00.000Z', LEVEL_1, 'alice', 2],
  ['2025-03-01T23:59:59.999Z', LEVEL_3, 'alice', 1],
  ['2025-03-02T12:00:00.000Z', LEVEL_1, 'alice', 3],
  ['2025-03-03T23:00:00.000Z', LEVEL_4, 'bob', 1],
  ['2025-03-04T00:00:00.000Z', LEVEL_1, 'alice', 1], // the day after: outside
];

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'reporter@example.test', roleNames: ['ROLE_UI_USER', 'config.group.reporting'] });
  await createUserAsAdmin(server, admin, { email: 'useradmin@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_USER_ADMIN'] });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  for (const name of ['alice', 'bob']) await createUserAsAdmin(server, admin, { email: `${name}@example.test` }, { prove: false });
  reporter = await signIn(server, 'reporter@example.test', 'Good-Passw0rd');
  userAdmin = await signIn(server, 'useradmin@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
  for (const row of await server.app.db.selectFrom('users').select(['id', 'email']).execute()) ids[row.email.split('@')[0]!] = row.id;

  const db = server.app.db;
  const uuids = await seedSentDeliveries(db, {
    count: SEEDED.length,
    senderId: (i) => ids[SEEDED[i]![2]]!,
    recipient: (i) => `r${i}a@partner.test`,
    moreRecipients: (i) => Array.from({ length: SEEDED[i]![3] - 1 }, (_, k) => `r${i}${'bc'[k]}@partner.test`),
    sentAt: (i) => at(SEEDED[i]![0]),
    level: (i) => SEEDED[i]![1],
    subject: (i) => `Seeded ${i}`,
  });
  // The bytes of the first delivery are gone (expiry sweep): it no longer counts as stored.
  // The sweep at the first one's expiry (sent + 90 days, 1 ms before the second's) purges it alone.
  expect(await sweepDeliveries(server.app, at(SEEDED[0]![0]) + 90 * DAY_MS)).toEqual({ expired: 1, drafts: 0 });
  expect((await db.selectFrom('deliveries').select('purged_at').where('uuid', '=', uuids[0]!).executeTakeFirstOrThrow()).purged_at).not.toBeNull();

  const shares = await db
    .selectFrom('delivery_recipients as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .select(['r.id', 'r.email', 'd.id as deliveryId', 'd.security_level as level'])
    .execute();
  const share = (email: string) => shares.find((s) => s.email === email)!;
  // As the download writes them: a `downloaded` row carries its delivery's level and UTC day (migration 0029).
  const activity = (email: string, kind: string, iso: string) => ({
    delivery_id: share(email).deliveryId,
    kind,
    actor: email,
    recipient_id: share(email).id,
    detail: 'file.pdf',
    created_at: at(iso),
    security_level: kind === 'downloaded' ? share(email).level : null,
    day: kind === 'downloaded' ? Math.floor(at(iso) / DAY_MS) : null,
  });
  await db
    .insertInto('delivery_activity')
    .values([
      activity('r1a@partner.test', 'downloaded', '2025-03-01T10:00:00Z'), // two files by one recipient
      activity('r1a@partner.test', 'downloaded', '2025-03-01T10:00:01Z'),
      activity('r1b@partner.test', 'downloaded', '2025-03-02T09:00:00Z'),
      activity('r2a@partner.test', 'downloaded', '2025-03-03T00:00:00Z'),
      activity('r3a@partner.test', 'downloaded', '2025-03-05T00:00:00Z'), // outside
      activity('r1a@partner.test', 'notified', '2025-03-01T00:00:00Z'), // not a download
    ])
    .execute();

  const day = (iso: string) => Math.floor(at(iso) / DAY_MS);
  await db
    .insertInto('user_active_days')
    .values([
      { day: day('2025-03-01T00:00:00Z'), user_id: ids.alice! },
      { day: day('2025-03-01T00:00:00Z'), user_id: ids.bob! },
      { day: day('2025-03-02T00:00:00Z'), user_id: ids.alice! },
      { day: day('2025-03-04T00:00:00Z'), user_id: ids.alice! }, // outside
    ])
    .execute();
}, 180_000);
afterAll(() => server?.close());

/** A delivery from `sender` to `to` at `level` with one committed file of `size` random bytes, sent through the API (or left a draft). */
async function sentWithFile(
  sender: Session,
  to: string,
  level: SecurityLevel,
  size: number,
  options: { send?: boolean } = {},
): Promise<{ deliveryUuid: string; fileId: string }> {
  const { deliveryUuid } = await json<{ deliveryUuid: string }>(
    await call(server, sender, 'POST', '/api/2' + DELIVERY_PATHS.create, { recipients: [to], subject: 'With a file', body: 'Attached.', securityLevel: level }),
    201,
  );
  const file = await json<DeliveryUploadFile>(await call(server, sender, 'POST', '/api/2' + DELIVERY_PATHS.files(deliveryUuid), { name: 'figures.bin', size, mimeType: 'application/octet-stream' }), 201);
  const bytes = testFileBytes(size);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * file.partSize, (i + 1) * file.partSize);
    const response = await fetch(`${server.url}/api/2${DELIVERY_PATHS.part(deliveryUuid, file.fileId, i)}`, {
      method: 'PUT',
      headers: { cookie: sender.cookie, [ANTI_CSRF_HEADER]: sender.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': createHash('sha256').update(part).digest('hex') },
      body: new Blob([Uint8Array.from(part)]),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  await json(await call(server, sender, 'POST', '/api/2' + DELIVERY_PATHS.commit(deliveryUuid, file.fileId)), 200);
  if (options.send !== false) await json(await call(server, sender, 'POST', '/api/2' + DELIVERY_PATHS.send(deliveryUuid)), 200);
  return { deliveryUuid, fileId: file.fileId };
}

describe('figures', () => {
  it('deliveries sent and received per UTC day and level, the range edges included', async () => {
    const report = await json<DeliveriesReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.deliveries.path, MARCH)));
    expect(report).toEqual({
      from: '2025-03-01',
      to: '2025-03-03',
      rows: [
        { date: '2025-03-01', level: LEVEL_1, sent: 1, received: 2 },
        { date: '2025-03-01', level: LEVEL_3, sent: 1, received: 1 },
        { date: '2025-03-02', level: LEVEL_1, sent: 1, received: 3 },
        { date: '2025-03-03', level: LEVEL_4, sent: 1, received: 1 },
      ],
      totals: { sent: 4, received: 7 },
    });
    const oneDay = await json<DeliveriesReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.deliveries.path, 'from=2025-03-04&to=2025-03-04')));
    expect(oneDay.rows).toEqual([{ date: '2025-03-04', level: LEVEL_1, sent: 1, received: 1 }]);
    const empty = await json<DeliveriesReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.deliveries.path, 'from=2024-01-01&to=2024-12-31')));
    expect(empty).toEqual({ from: '2024-01-01', to: '2024-12-31', rows: [], totals: { sent: 0, received: 0 } });
  });

  it('a delivery sent through the API counts today: once as sent, once per recipient (both kinds) as received', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const todayReport = async () =>
      (await json<DeliveriesReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.deliveries.path, `from=${today}&to=${today}`)))).rows;
    expect(await todayReport()).toEqual([]);
    const created = await call(server, plain, 'POST', '/api/2' + DELIVERY_PATHS.create, {
      recipients: ['reporter@example.test'],
      additionalRecipients: ['useradmin@example.test'],
      subject: 'Counted',
      body: 'A message.',
      securityLevel: SECURITY_LEVELS.LEVEL_2,
    });
    const { deliveryUuid } = await json<{ deliveryUuid: string }>(created, 201);
    await json(await call(server, plain, 'POST', '/api/2' + DELIVERY_PATHS.send(deliveryUuid)), 200);
    expect(await todayReport()).toEqual([{ date: today, level: SECURITY_LEVELS.LEVEL_2, sent: 1, received: 2 }]);
    // The send also marks its sender a sender today (sender_days, migration 0029).
    const active = await json<ActiveUsersReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.activeUsers.path, `from=${today}&to=${today}`)));
    expect(active.totals.senders).toBe(1);
  });

  it('downloads per day and level: every file download, and the distinct recipients', async () => {
    const report = await json<DownloadsReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.downloads.path, MARCH)));
    expect(report.rows).toEqual([
      { date: '2025-03-01', level: LEVEL_1, downloads: 2, recipients: 1 },
      { date: '2025-03-02', level: LEVEL_1, downloads: 1, recipients: 1 },
      { date: '2025-03-03', level: LEVEL_3, downloads: 1, recipients: 1 },
    ]);
    expect(report.totals).toEqual({ downloads: 4 });
  });

  it('active users and senders: every day of the range, totals distinct over the range', async () => {
    const report = await json<ActiveUsersReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.activeUsers.path, MARCH)));
    expect(report.rows).toEqual([
      { date: '2025-03-01', activeUsers: 2, senders: 1 },
      { date: '2025-03-02', activeUsers: 1, senders: 1 },
      { date: '2025-03-03', activeUsers: 0, senders: 1 },
    ]);
    expect(report.totals).toEqual({ activeUsers: 2, senders: 2 });
  });

  it('a sign-in marks its user active today (once, however often they sign in)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const count = async () =>
      (await json<ActiveUsersReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.activeUsers.path, `from=${today}&to=${today}`)))).rows[0]!.activeUsers;
    const before = await count();
    await signIn(server, 'plain@example.test', 'Good-Passw0rd'); // active today already: no second count
    expect(await count()).toBe(before);
    await createUserAsAdmin(server, admin, { email: 'carl@example.test' }); // proving the address signs carl in
    expect(await count()).toBe(before + 1);
  });

  it('storage per area: what is stored now, and what was added in the range; data rooms 0', async () => {
    const report = await json<StorageReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.storage.path, MARCH)));
    // seedSentDeliveries: one committed file per delivery of 100 000 + i bytes; the first one is purged.
    expect(report.rows).toEqual([
      { area: 'secureMails', files: 5, bytes: 500_015, filesAdded: 4, bytesAdded: 400_010 },
      { area: 'dataRooms', files: 0, bytes: 0, filesAdded: 0, bytesAdded: 0 },
    ]);
  });
});

describe('CSV', () => {
  const csv = async (path: string, session: Session = admin, range = MARCH) => {
    const response = await call(server, session, 'GET', api(path, range));
    // Kept with its byte order mark (Response.text() would drop it).
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(response.status, text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    return { text, disposition: response.headers.get('content-disposition') };
  };

  it('deliveries: header, one line per day and level (levels as 1–4), CRLF, attachment name with the range', async () => {
    const { text, disposition } = await csv(REPORT_ENDPOINTS.deliveriesCsv.path);
    expect(text).toBe('\uFEFFdate,level,sent,received\r\n2025-03-01,1,1,2\r\n2025-03-01,3,1,1\r\n2025-03-02,1,1,3\r\n2025-03-03,4,1,1\r\n');
    expect(disposition).toBe(`attachment; filename="kuvert-deliveries-2025-03-01-2025-03-03.csv"; filename*=UTF-8''kuvert-deliveries-2025-03-01-2025-03-03.csv`);
  });

  it('downloads, active users and storage', async () => {
    expect((await csv(REPORT_ENDPOINTS.downloadsCsv.path)).text).toBe('\uFEFFdate,level,downloads,recipients\r\n2025-03-01,1,2,1\r\n2025-03-02,1,1,1\r\n2025-03-03,3,1,1\r\n');
    const active = await csv(REPORT_ENDPOINTS.activeUsersCsv.path);
    expect(active.text).toBe('\uFEFFdate,active_users,senders\r\n2025-03-01,2,1\r\n2025-03-02,1,1\r\n2025-03-03,0,1\r\n');
    expect(active.disposition).toContain('filename="kuvert-active-users-2025-03-01-2025-03-03.csv"');
    expect((await csv(REPORT_ENDPOINTS.storageCsv.path)).text).toBe('\uFEFFarea,files,bytes,files_added,bytes_added\r\nSecure mails,5,500015,4,400010\r\nData rooms,0,0,0,0\r\n');
  });

  it('for the user\'s spreadsheet: a byte order mark, the separator of the user\'s language (; for de and fr), area names in that language', async () => {
    const bytes = new Uint8Array(await (await call(server, admin, 'GET', api(REPORT_ENDPOINTS.storageCsv.path, MARCH))).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    for (const [language, expected] of [
      ['de', '\uFEFFarea;files;bytes;files_added;bytes_added\r\nSichere Mails;5;500015;4;400010\r\nDatenräume;0;0;0;0\r\n'],
      ['fr', '\uFEFFarea;files;bytes;files_added;bytes_added\r\nMails sécurisés;5;500015;4;400010\r\nSalles de données;0;0;0;0\r\n'],
    ] as const) {
      const email = `reports-${language}@example.test`;
      await createUserAsAdmin(server, admin, { email, language, roleNames: ['ROLE_UI_USER', 'ROLE_ADMIN'] });
      const session = await signIn(server, email, 'Good-Passw0rd');
      expect((await csv(REPORT_ENDPOINTS.storageCsv.path, session)).text).toBe(expected);
      expect((await csv(REPORT_ENDPOINTS.deliveriesCsv.path, session)).text).toBe('\uFEFFdate;level;sent;received\r\n2025-03-01;1;1;2\r\n2025-03-01;3;1;1\r\n2025-03-02;1;1;3\r\n2025-03-03;4;1;1\r\n');
    }
  });

  it('an empty range is the header alone', async () => {
    expect((await csv(REPORT_ENDPOINTS.deliveriesCsv.path, admin, 'from=2024-01-01&to=2024-01-31')).text).toBe('\uFEFFdate,level,sent,received\r\n');
  });
});

describe('range validation (SPEC §8 errors)', () => {
  const bad = async (range: string) => expectBackendError(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.deliveries.path, range)), 400, 'ValidationException');

  it('from after to, more than 366 days, no real day, a missing bound, an unknown parameter', async () => {
    for (const range of ['from=2025-03-02&to=2025-03-01', 'from=2024-01-01&to=2025-01-01', 'from=2025-02-30&to=2025-03-01', 'from=2025-3-1&to=2025-03-02', 'to=2025-03-01', 'from=2025-03-01&to=2025-03-01&limit=5']) {
      const error = await bad(range);
      expect(error.requestUri).toContain('/api/2/reports/deliveries');
    }
    expect((await bad('from=2025-03-02&to=2025-03-01')).message).toBeTruthy();
    // CSV routes validate alike.
    await expectBackendError(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.storageCsv.path, 'from=2024-01-01&to=2025-01-01')), 400, 'ValidationException');
  });

  it('366 days (a leap year) is the longest range', async () => {
    const report = await json<ActiveUsersReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.activeUsers.path, 'from=2024-01-01&to=2024-12-31')));
    expect(report.rows).toHaveLength(366);
  });
});

describe('who may see reports', () => {
  const ALL = Object.values(REPORT_ENDPOINTS).map((e) => e.path);

  it('config.group.reporting sees every report and CSV', async () => {
    for (const path of ALL) expect((await call(server, reporter, 'GET', api(path, MARCH))).status, path).toBe(200);
    expect((await json<DeliveriesReport>(await call(server, reporter, 'GET', api(REPORT_ENDPOINTS.deliveries.path, MARCH)))).totals).toEqual({ sent: 4, received: 7 });
  });

  it('signed out → 401; a plain user and a user administrator → 403, in the SPEC §8 shape', async () => {
    for (const path of ALL) {
      await expectBackendError(await call(server, null, 'GET', api(path, MARCH)), 401);
      await expectBackendError(await call(server, plain, 'GET', api(path, MARCH)), 403);
      await expectBackendError(await call(server, userAdmin, 'GET', api(path, MARCH)), 403);
    }
  });
});

// Last: these add stored files and downloads of today to the figures the tests above expect.
describe('figures follow the API', () => {
  it('a download through the API counts today at its delivery\'s level', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const todayRows = async () =>
      (await json<DownloadsReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.downloads.path, `from=${today}&to=${today}`)))).rows;
    expect(await todayRows()).toEqual([]);
    const { deliveryUuid, fileId } = await sentWithFile(plain, 'reporter@example.test', SECURITY_LEVELS.LEVEL_2, 1200);
    const content = await fetch(`${server.url}/api/2${DELIVERY_PATHS.content(deliveryUuid, fileId)}`, { headers: { cookie: reporter.cookie } });
    expect(content.status, await content.clone().text()).toBe(200);
    expect((await content.arrayBuffer()).byteLength).toBe(1200);
    // Recorded once the last byte has gone out (after the response): poll.
    await expect.poll(todayRows).toEqual([{ date: today, level: SECURITY_LEVELS.LEVEL_2, downloads: 1, recipients: 1 }]);
  });

  it('the storage totals equal the sum of the stored files after every commit, removal, delete, user deletion and purge', async () => {
    // The definition, summed over every file: committed files of deliveries neither purged nor deleted.
    const summed = async () => {
      const row = await server.app.db
        .selectFrom('delivery_files as f')
        .innerJoin('deliveries as d', 'd.id', 'f.delivery_id')
        .select([(eb) => eb.fn.countAll().as('files'), (eb) => eb.fn.sum('f.size').as('bytes')])
        .where('f.status', '=', 'committed')
        .where('d.purged_at', 'is', null)
        .where('d.status', '!=', 'deleted')
        .executeTakeFirstOrThrow();
      return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
    };
    const reported = async () => {
      const report = await json<StorageReport>(await call(server, admin, 'GET', api(REPORT_ENDPOINTS.storage.path, MARCH)));
      const { files, bytes } = report.rows.find((r) => r.area === 'secureMails')!;
      return { files, bytes };
    };
    const consistent = async () => {
      const expected = await summed();
      expect(await reported()).toEqual(expected);
      return expected;
    };
    const start = await consistent();

    const draft = await sentWithFile(plain, 'reporter@example.test', SECURITY_LEVELS.LEVEL_1, 700, { send: false });
    expect(await consistent()).toEqual({ files: start.files + 1, bytes: start.bytes + 700 });
    expect((await call(server, plain, 'DELETE', '/api/2' + DELIVERY_PATHS.file(draft.deliveryUuid, draft.fileId))).status).toBe(204);
    expect(await consistent()).toEqual(start);

    const deleted = await sentWithFile(plain, 'reporter@example.test', SECURITY_LEVELS.LEVEL_1, 900);
    expect(await consistent()).toEqual({ files: start.files + 1, bytes: start.bytes + 900 });
    expect((await call(server, plain, 'DELETE', '/api/2' + DELIVERY_PATHS.one(deleted.deliveryUuid))).status).toBe(204);
    expect(await consistent()).toEqual(start);

    // Deleting a user deletes their deliveries: their files leave the totals too.
    await createUserAsAdmin(server, admin, { email: 'dora@example.test' });
    const dora = await signIn(server, 'dora@example.test', 'Good-Passw0rd');
    await sentWithFile(dora, 'reporter@example.test', SECURITY_LEVELS.LEVEL_1, 400);
    expect(await consistent()).toEqual({ files: start.files + 1, bytes: start.bytes + 400 });
    const { uuid } = await server.app.db.selectFrom('users').select('uuid').where('email', '=', 'dora@example.test').executeTakeFirstOrThrow();
    expect((await call(server, admin, 'DELETE', `/api/2/admin/users/${uuid}`)).status).toBe(204);
    expect(await consistent()).toEqual(start);

    // The sweep purges every delivery expired by then (all of them); a purged one deleted afterwards subtracts nothing more.
    const purged = await sentWithFile(plain, 'reporter@example.test', SECURITY_LEVELS.LEVEL_1, 300);
    await sweepDeliveries(server.app, Date.now() + 366 * DAY_MS);
    expect(await consistent()).toEqual({ files: 0, bytes: 0 });
    expect((await call(server, plain, 'DELETE', '/api/2' + DELIVERY_PATHS.one(purged.deliveryUuid))).status).toBe(204);
    expect(await consistent()).toEqual({ files: 0, bytes: 0 });
  });
});
