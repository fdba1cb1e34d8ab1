import { AUDIT_CSV_COLUMNS, AUDIT_PATHS, type AuditLogResponse } from '@shared/contract/audit';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// The audit log's filters (action, part of an address, time range) and its CSV export (UTF-8 with
// BOM, the same filters) against the real server; ROLE_ADMIN only (issue 34 §4).

let server: TestServer;
let admin: Session;
let userAdmin: Session;
const api = (path: string) => `/api/2${path}`;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 10, 12);

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const log = (query: string) => call(server, admin, 'GET', api(`${AUDIT_PATHS.adminLog}?${query}`)).then((r) => json<AuditLogResponse>(r, 200));

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'zoe.mueller@example.test' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test' });
  await createUserAsAdmin(server, admin, { email: 'helper@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_USER_ADMIN'] });
  userAdmin = await signIn(server, 'helper@example.test', 'Good-Passw0rd');
  const idOf = async (email: string) => (await server.app.users.findByLogin(email))!.id;
  const [zoe, bob, root] = await Promise.all([idOf('zoe.mueller@example.test'), idOf('bob@example.test'), idOf(server.admin.email)]);
  // Entries at known times (the log records "now"; these are written as the log writes them).
  const seeded = [
    { at: T0, actor_user_id: root, action: 'secupass.reset', subject_user_id: zoe, details: JSON.stringify({ note: 'Zoë, "quoted"' }) },
    { at: T0 + DAY, actor_user_id: root, action: 'user.updated', subject_user_id: bob, details: '{}' },
    { at: T0 + 2 * DAY, actor_user_id: bob, action: 'user.updated', subject_user_id: zoe, details: '{}' },
  ];
  await server.app.db.insertInto('audit_log').values(seeded).execute();
});
afterAll(() => server?.close());

describe('audit log filters', () => {
  it('filters by action, by part of the actor’s or subject’s address (any case), by time (inclusive), and pages', async () => {
    const range = `from=${T0}&to=${T0 + 2 * DAY}`;
    expect((await log(range)).total).toBe(3);
    const updated = await log(`${range}&action=user.updated`);
    expect(updated.entries.map((e) => e.at)).toEqual([T0 + 2 * DAY, T0 + DAY]);
    const zoe = await log(`${range}&user=${encodeURIComponent('ZOE.MU')}`);
    expect(zoe.entries.map((e) => e.action)).toEqual(['user.updated', 'secupass.reset']);
    expect((await log(`${range}&user=bob`)).entries.map((e) => e.at)).toEqual([T0 + 2 * DAY, T0 + DAY]);
    // LIKE wildcards in the input are plain characters.
    expect((await log(`${range}&user=%25`)).total).toBe(0);
    expect((await log(`from=${T0 + DAY}&to=${T0 + DAY}`)).entries.map((e) => e.action)).toEqual(['user.updated']);
    const paged = await log(`${range}&pageSize=2&page=2`);
    expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.entries.map((e) => e.at)).toEqual([T0]);
  });

  it('refuses a bad time with the error shape, and anyone but an administrator', async () => {
    await expectBackendError(await call(server, admin, 'GET', api(`${AUDIT_PATHS.adminLog}?from=yesterday`)), 400, 'ValidationException');
    await expectBackendError(await call(server, userAdmin, 'GET', api(AUDIT_PATHS.adminLog)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, userAdmin, 'GET', api(AUDIT_PATHS.adminLogCsv)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', api(AUDIT_PATHS.adminLogCsv)), 401);
  });
});

describe('audit log CSV', () => {
  it('is UTF-8 with a BOM, the same filters, a header row and RFC 4180 quoting', async () => {
    const response = await call(server, admin, 'GET', api(`${AUDIT_PATHS.adminLogCsv}?from=${T0}&to=${T0 + 2 * DAY}&user=zo`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="kuvert-audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe(
      '\ufeff' +
        [
          AUDIT_CSV_COLUMNS.join(','),
          `${new Date(T0 + 2 * DAY).toISOString()},user.updated,bob@example.test,zoe.mueller@example.test,{}`,
          `${new Date(T0).toISOString()},secupass.reset,${server.admin.email},zoe.mueller@example.test,"{""note"":""Zoë, \\""quoted\\""""}"`,
        ].join('\r\n') +
        '\r\n',
    );
  });
});
