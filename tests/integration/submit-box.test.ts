import { createHash } from 'node:crypto';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { DELIVERY_PATHS, DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import {
  SUBMIT_BOX_ERRORS,
  SUBMIT_BOX_SETTING_KEY,
  SUBMIT_TICKET_LIMIT_PER_ADDRESS,
  SUBMIT_TICKET_LIMIT_PER_IP,
  SUBMIT_TICKET_PAGE,
  SUBMIT_TICKET_PATHS,
  type SubmitBox,
  type SubmitStartResponse,
  type SubmitTicketState,
} from '@shared/contract/submit-box';
import { SUBMIT_TICKET_HEADER } from '@shared/contract/link-token';
import { blobUpload, sendDelivery } from '@shared/transfer';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

// The submit box against the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
// owner settings and denials, ticket mails and their rate limits, every §8 state, the single use
// of a ticket under concurrency, and a submission through the ordinary upload engine.

let server: TestServer;
let admin: Session;
let owner: Session; // ROLE_SUBMITBOX_OWNER
let plain: Session; // no owner role
/** The server's real log (the production logger and its redaction). */
const logLines: string[] = [];

const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let counter = 0;
const partner = () => `partner-${++counter}@outside.test`;
const OWNER_ROLES = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SUBMITBOX_OWNER'] as const;

beforeAll(async () => {
  server = await startTestServer({ logStream: { write: (line) => void logLines.push(line) }, config: { trustProxy: '127.0.0.1', uploadPartSize: 1024 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', firstName: 'Olga', lastName: 'Owner', roleNames: [...OWNER_ROLES] });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());
beforeEach(() => forgetFailures(server));

async function box(changes?: Record<string, unknown>): Promise<SubmitBox> {
  const response = changes ? await call(server, owner, 'PUT', api('/submit-box'), changes) : await call(server, owner, 'GET', api('/submit-box'));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SubmitBox;
}

/** The partner asks on the public page; the ticket token from the mailed link. */
async function requestTicket(boxUuid: string, email: string, ip = '198.51.100.1'): Promise<string> {
  const response = await fetch(`${server.url}${api(`/submit-boxes/${boxUuid}/tickets`)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, language: 'en' }),
  });
  expect(response.status, await response.clone().text()).toBe(202);
  expect(await response.json()).toEqual({ expectedWithinMinutes: 5 });
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(email));
  expect(mail.subject).toContain('Olga Owner');
  // The ticket is in the link's fragment (issue 28): a browser never sends it to a server.
  const link = extractLink(mail, SUBMIT_TICKET_PAGE);
  expect(link.pathname).toBe(SUBMIT_TICKET_PAGE);
  return new URLSearchParams(link.hash.slice(1)).get('ticket')!;
}

const publicCall = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${api(path)}`, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
/** A ticket call as the ticket page makes it: the ticket in the x-submit-ticket header. */
const ticketCall = (method: string, path: string, ticket: string, body?: unknown) => publicCall(method, path, body, { [SUBMIT_TICKET_HEADER]: ticket });
const ticketState = (ticket: string) => ticketCall('GET', SUBMIT_TICKET_PATHS.ticket, ticket);

const start = (ticket: string, message = 'Here are the documents.') => ticketCall('POST', SUBMIT_TICKET_PATHS.start, ticket, { message });

function bearerClient(token: string): ApiClient {
  return createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }) });
}

describe('submit box', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('owner only: the box and its settings; others are refused', async () => {
    expect((await call(server, null, 'GET', api('/submit-box'))).status).toBe(401);
    await expectBackendError(await call(server, plain, 'GET', api('/submit-box')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, plain, 'POST', api('/submit-box/tickets'), { email: 'x@outside.test' }), 403, 'AccessDeniedException');
    const first = await box();
    expect(first).toMatchObject({ active: false, allowedLevels: [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2], validityDays: null, globallyDisabled: false, ownerHasPassphrase: false });
    expect(first.link).toBe(`${server.url}/submit/${first.boxUuid}`);
    // Bad input: §8 answers, nothing changed.
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { active: 'yes' }), 400, 'ValidationException');
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { validityDays: 0 }), 400, 'ValidationException');
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { active: true, allowedLevels: [] }), 400, 'ValidationException');
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { colour: 'red' }), 400, 'ValidationException');
    expect(await box()).toEqual(first);
    const active = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1], validityDays: 14 });
    expect(active).toMatchObject({ boxUuid: first.boxUuid, active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1], validityDays: 14 });
  });

  it('every state of the public page and the ticket page answers its §8 class', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2] });
    expect(await (await publicCall('GET', `/submit-boxes/${boxUuid}`)).json()).toEqual({ ownerName: 'Olga Owner', securityLevel: SECURITY_LEVELS.LEVEL_2 });
    const ticket = await requestTicket(boxUuid, partner());

    await expectBackendError(await publicCall('GET', '/submit-boxes/00000000-0000-4000-8000-000000000000'), 404, SUBMIT_BOX_ERRORS.notFound);
    await expectBackendError(await ticketState('not-a-real-ticket-token-at-all'), 404, SUBMIT_BOX_ERRORS.notFound);

    await box({ active: false });
    await expectBackendError(await publicCall('GET', `/submit-boxes/${boxUuid}`), 409, SUBMIT_BOX_ERRORS.notEnabled);
    await expectBackendError(await ticketState(ticket), 409, SUBMIT_BOX_ERRORS.notEnabled);
    await expectBackendError(await start(ticket), 409, SUBMIT_BOX_ERRORS.notEnabled);
    await box({ active: true });

    await updateSettings(server, admin, { [SUBMIT_BOX_SETTING_KEY]: false });
    expect((await box()).globallyDisabled).toBe(true);
    await expectBackendError(await publicCall('GET', `/submit-boxes/${boxUuid}`), 409, SUBMIT_BOX_ERRORS.globallyDisabled);
    await expectBackendError(await call(server, owner, 'POST', api('/submit-box/tickets'), { email: partner() }), 409, SUBMIT_BOX_ERRORS.globallyDisabled);
    await updateSettings(server, admin, { [SUBMIT_BOX_SETTING_KEY]: true });

    // Level 2 switched off system-wide: the box falls back to level 1; with level 1 off too, none is left.
    await updateSettings(server, admin, { 'kuvert.delivery.allowSecurityLevel2': false });
    expect(((await (await publicCall('GET', `/submit-boxes/${boxUuid}`)).json()) as { securityLevel: number }).securityLevel).toBe(SECURITY_LEVELS.LEVEL_1);
    await updateSettings(server, admin, { 'kuvert.delivery.allowSecurityLevel1': false });
    await expectBackendError(await publicCall('GET', `/submit-boxes/${boxUuid}`), 409, SUBMIT_BOX_ERRORS.noAllowedLevel);
    await updateSettings(server, admin, { 'kuvert.delivery.allowSecurityLevel1': true, 'kuvert.delivery.allowSecurityLevel2': true });

    // Encrypted submits only, and the owner has no SecuPass: the owner cannot choose it (409); a box
    // that had it (the owner's SecuPass was reset since) answers the public page with the same class.
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { allowedLevels: [SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4] }), 409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase);
    await server.app.db.updateTable('submit_boxes').set({ allowed_levels: JSON.stringify([SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4]) }).where('uuid', '=', boxUuid).execute();
    await expectBackendError(await publicCall('GET', `/submit-boxes/${boxUuid}`), 409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase);
    await expectBackendError(await start(ticket), 409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase);
    await box({ allowedLevels: [SECURITY_LEVELS.LEVEL_1] });

    const state = (await (await ticketState(ticket)).json()) as SubmitTicketState;
    expect(state).toMatchObject({ ownerName: 'Olga Owner', ownerEmail: 'owner@example.test', securityLevel: SECURITY_LEVELS.LEVEL_1 });
    expect((await start(ticket)).status).toBe(201);
    // The used link's page links back to the box (issue 33 §2): the answer names it.
    const used = await expectBackendError(await ticketState(ticket), 409, SUBMIT_BOX_ERRORS.ticketUsed);
    expect(used.metadata).toEqual({ boxUuid });
  });

  it('bad input: §8 errors, no 5xx, no ticket stored', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1] });
    const before = await server.app.db.selectFrom('submit_tickets').select('id').execute();
    for (const body of [{ email: 'not-an-address' }, { email: '' }, { email: 'a@b.test', extra: 1 }, { email: 'x'.repeat(400) + '@outside.test' }, {}, { email: 42 }]) {
      await expectBackendError(await publicCall('POST', `/submit-boxes/${boxUuid}/tickets`, body), 400, 'ValidationException');
    }
    await expectBackendError(await publicCall('POST', `/submit-boxes/${'z'.repeat(100)}/tickets`, { email: 'a@b.test' }), 400, 'ValidationException');
    expect(await server.app.db.selectFrom('submit_tickets').select('id').execute()).toHaveLength(before.length);
    const ticket = await requestTicket(boxUuid, partner());
    await expectBackendError(await ticketCall('POST', SUBMIT_TICKET_PATHS.start, ticket, { message: 'x'.repeat(10_001) }), 400, 'ValidationException');
    await expectBackendError(await ticketCall('POST', SUBMIT_TICKET_PATHS.start, ticket, { message: 1 }), 400, 'ValidationException');
    // Still unused: the refused starts did not spend it.
    expect((await ticketState(ticket)).status).toBe(200);
  });

  it('the ticket travels in the x-submit-ticket header (issue 28): missing 400, unknown 404; the path form is retired; no log line holds it', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1] });
    const ticket = await requestTicket(boxUuid, partner());
    const before = logLines.length;
    for (const [method, path, body] of [['GET', SUBMIT_TICKET_PATHS.ticket, undefined], ['POST', SUBMIT_TICKET_PATHS.start, { message: 'x' }]] as const) {
      const missing = await expectBackendError(await publicCall(method, path, body), 400, 'ValidationException');
      expect(JSON.stringify(missing.metadata)).toContain(SUBMIT_TICKET_HEADER);
      await expectBackendError(await ticketCall(method, path, 'Z'.repeat(43), body), 404, SUBMIT_BOX_ERRORS.notFound);
    }
    for (const [method, path] of [['GET', `/submit-tickets/${ticket}`], ['POST', `/submit-tickets/${ticket}/start`]] as const) {
      const body = await expectBackendError(await publicCall(method, path, method === 'POST' ? { message: 'x' } : undefined), 404, 'NotFoundException');
      // The error body does not echo the ticket either (requestUri redacted as in the log).
      expect(body.requestUri).toContain('/submit-tickets/[redacted]');
      expect(JSON.stringify(body)).not.toContain(ticket);
    }
    expect((await ticketState(ticket)).status).toBe(200);
    expect((await start(ticket)).status).toBe(201);
    const log = logLines.slice(before).join('\n');
    for (const url of ['/api/2/submit-tickets/[redacted]', '/api/2/submit-tickets/[redacted]/start', '/api/2/submit-tickets/by-token', '/api/2/submit-tickets/by-token/start']) expect(log).toContain(`"url":"${url}"`);
    expect(logLines.filter((line) => line.includes(ticket))).toEqual([]);
    const document = (await (await fetch(`${server.url}/api/2/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
    for (const [method, path] of [['get', SUBMIT_TICKET_PATHS.ticket], ['post', SUBMIT_TICKET_PATHS.start]] as const) {
      expect(document.paths[api(path)]?.[method]?.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: SUBMIT_TICKET_HEADER, required: true }));
    }
  });

  it('ticket requests are rate limited per address and per client address (database counts)', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1] });
    const email = partner();
    for (let i = 0; i < SUBMIT_TICKET_LIMIT_PER_ADDRESS; i++) await requestTicket(boxUuid, email, `198.51.100.${10 + i}`);
    const refused = await fetch(`${server.url}${api(`/submit-boxes/${boxUuid}/tickets`)}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.99' }, body: JSON.stringify({ email }) });
    await expectBackendError(refused, 429, 'RateLimitExceededException');
    expect((await readMailbox(server.mailboxDir)).filter(addressedTo(email))).toHaveLength(SUBMIT_TICKET_LIMIT_PER_ADDRESS);
    expect(await server.app.db.selectFrom('rate_limit_events').select('id').where('bucket', '=', 'submit-ticket:address').where('subject', '=', email).execute()).toHaveLength(SUBMIT_TICKET_LIMIT_PER_ADDRESS + 1);

    const ip = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i <= SUBMIT_TICKET_LIMIT_PER_IP; i++) {
      const response = await fetch(`${server.url}${api(`/submit-boxes/${boxUuid}/tickets`)}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ email: partner() }) });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, SUBMIT_TICKET_LIMIT_PER_IP).every((s) => s === 202)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('two parallel uses of one ticket: exactly one succeeds', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1] });
    const ticket = await requestTicket(boxUuid, partner());
    const answers = await Promise.all([start(ticket, 'one'), start(ticket, 'two'), start(ticket, 'three')]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) await expectBackendError(answer, 409, SUBMIT_BOX_ERRORS.ticketUsed);
    const row = await server.app.db.selectFrom('submit_tickets').selectAll().where('used_at', 'is not', null).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.delivery_id).not.toBeNull();
    // One draft only.
    const drafts = await server.app.db.selectFrom('deliveries').select('id').where('id', '=', row.delivery_id!).execute();
    expect(drafts).toHaveLength(1);
  });

  it('the partner chooses among the allowed levels (issue 33 §2): the default is the highest; another level is refused', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2] });
    const ticket = await requestTicket(boxUuid, partner());
    const state = (await (await ticketState(ticket)).json()) as SubmitTicketState;
    expect(state).toMatchObject({ securityLevel: SECURITY_LEVELS.LEVEL_2, allowedLevels: [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2] });
    // A level the box does not allow: 400, and the ticket stays unused.
    const refused = await expectBackendError(await ticketCall('POST', SUBMIT_TICKET_PATHS.start, ticket, { message: 'x', securityLevel: SECURITY_LEVELS.LEVEL_4 }), 400, 'ValidationException');
    expect(refused.metadata).toMatchObject({ field: 'securityLevel', reason: 'levelNotAllowed' });
    const chosen = await ticketCall('POST', SUBMIT_TICKET_PATHS.start, ticket, { message: 'At level 1, please.', securityLevel: SECURITY_LEVELS.LEVEL_1 });
    expect(chosen.status, await chosen.clone().text()).toBe(201);
    const started = (await chosen.json()) as SubmitStartResponse;
    expect(started.securityLevel).toBe(SECURITY_LEVELS.LEVEL_1);
    const draft = await server.app.db.selectFrom('deliveries').select('security_level').where('uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
    expect(draft.security_level).toBe(SECURITY_LEVELS.LEVEL_1);
  });

  it('a submission is a delivery to the owner through the upload engine; the session reaches its draft only', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2] });
    const email = partner();
    const ticket = await requestTicket(boxUuid, email);
    const response = await start(ticket, 'Two files for you.');
    expect(response.status).toBe(201);
    const started = (await response.json()) as SubmitStartResponse;
    expect(started).toMatchObject({ ownerEmail: 'owner@example.test', securityLevel: SECURITY_LEVELS.LEVEL_2 });

    // The limited session: no other call, no other delivery, no cookie use.
    const bearer = { authorization: `Bearer ${started.sessionToken}` };
    await expectBackendError(await fetch(`${server.url}${api('/deliveries/inbox')}`, { headers: bearer }), 403, 'AccessDeniedException');
    await expectBackendError(await fetch(`${server.url}${api('/submit-box')}`, { headers: bearer }), 403, 'AccessDeniedException');
    await expectBackendError(await fetch(`${server.url}${api(DELIVERY_PATHS.create)}`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ recipients: ['someone@outside.test'], subject: 's', body: 'b', securityLevel: 0 }) }), 403, 'AccessDeniedException');
    const other = await call(server, owner, 'POST', api(DELIVERY_PATHS.create), { recipients: ['plain@example.test'], subject: 'Other', body: 'b', securityLevel: 0 });
    const otherUuid = ((await other.json()) as { deliveryUuid: string }).deliveryUuid;
    await expectBackendError(await fetch(`${server.url}${api(DELIVERY_PATHS.send(otherUuid))}`, { method: 'POST', headers: bearer }), 403, 'AccessDeniedException');
    expect((await fetch(`${server.url}${api('/user')}`, { headers: { cookie: `KUVERT_SESSION=${started.sessionToken}` } })).status).not.toBe(200);

    const first = testFileBytes(3000);
    const second = testFileBytes(700);
    const result = await sendDelivery({
      client: bearerClient(started.sessionToken),
      draft: { deliveryUuid: started.deliveryUuid },
      files: [
        { name: 'contract.pdf', blob: new Blob([first], { type: 'application/pdf' }) },
        { name: 'photo.bin', blob: new Blob([second]) },
      ],
      transform: async (source) => blobUpload(source.blob),
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);

    // The owner has it in the inbox and downloads identical bytes; the owner got the delivery mail.
    const inbox = await call(server, owner, 'GET', api('/deliveries/inbox'));
    const entries = ((await inbox.json()) as { items: Array<{ deliveryUuid: string; subject: string }> }).items;
    const entry = entries.find((e) => e.deliveryUuid === started.deliveryUuid);
    expect(entry?.subject).toBe(`Submit box: submission from ${email}`);
    const detail = (await (await call(server, owner, 'GET', api(`/deliveries/${started.deliveryUuid}`))).json()) as { body: string; files: Array<{ fileId: string; name: string }> };
    expect(detail.body).toBe('Two files for you.');
    for (const [name, bytes] of [['contract.pdf', first], ['photo.bin', second]] as const) {
      const file = detail.files.find((f) => f.name === name)!;
      const content = await fetch(`${server.url}${api(DELIVERY_PATHS.content(started.deliveryUuid, file.fileId))}`, { headers: { cookie: owner.cookie } });
      expect(content.status).toBe(200);
      expect(sha256(new Uint8Array(await content.arrayBuffer()))).toBe(sha256(bytes));
    }
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('owner@example.test')(m) && m.subject.includes(email));
    // The submitter account cannot sign in.
    const login = await fetch(`${server.url}${api('/auth')}`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${email}:!submitter`).toString('base64')}`, 'content-type': 'application/json' }, body: '{}' });
    expect(login.status).not.toBe(200);
  });

  it('files over the size limit: SubmitQuotaReachedException with allowed and required sizes (SPEC §8), no file stored', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2] });
    const ticket = await requestTicket(boxUuid, partner());
    const started = (await (await start(ticket)).json()) as SubmitStartResponse;
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 3000 });
    try {
      const announce = (name: string, size: number) =>
        fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files`)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${started.sessionToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, size, mimeType: 'application/pdf' }),
        });
      expect((await announce('one.pdf', 2000)).status).toBe(201);
      const over = await expectBackendError(await announce('two.pdf', 2000), 413, 'SubmitQuotaReachedException');
      expect(over.metadata).toEqual({ allowedSize: 3000, requiredSize: 4000 });
      const files = await server.app.db.selectFrom('delivery_files as f').innerJoin('deliveries as d', 'd.id', 'f.delivery_id').select('f.name').where('d.uuid', '=', started.deliveryUuid).execute();
      expect(files.map((f) => f.name)).toEqual(['one.pdf']);
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 10 * 1024 ** 3 });
    }
  });

  it('the owner mails a ticket to an address', async () => {
    await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1] });
    const email = partner();
    const response = await call(server, owner, 'POST', api('/submit-box/tickets'), { email, language: 'de' });
    expect(response.status, await response.clone().text()).toBe(202);
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(email));
    expect(mail.subject).toContain('Olga Owner');
    expect(mail.text).toContain('Dateien senden');
    await expectBackendError(await call(server, owner, 'POST', api('/submit-box/tickets'), { email: 'nope' }), 400, 'ValidationException');
  });
});
