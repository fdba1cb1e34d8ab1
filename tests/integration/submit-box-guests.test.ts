import { SECURITY_LEVELS } from '@shared/contract/constants';
import { SUBMIT_BOX_ENDPOINTS } from '@shared/contract/endpoints/submit-box';
import { SUBMIT_TICKET_HEADER } from '@shared/contract/link-token';
import { SUBMIT_BOX_ERRORS, SUBMIT_TICKET_PAGE, SUBMIT_TICKET_PATHS, type SubmitStartResponse } from '@shared/contract/submit-box';
import type { GuestTicket, GuestTicketList } from '@shared/contract/submit-box-guests';
import { addressedTo, extractLink, linkToken, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// Submit-box guest tickets (issue 33 §3) against the real server (SQLite, or PostgreSQL with
// KUVERT_TEST_DATABASE_URL): the owner creates one for a named person, the mail with subject,
// message and link, the states unused → used, expired, revoked, and who may call.

let server: TestServer;
let admin: Session;
let owner: Session; // ROLE_SUBMITBOX_OWNER, box active
let otherOwner: Session; // ROLE_SUBMITBOX_OWNER, box active
let plain: Session; // no owner role

const api = (path: string) => `/api/2${path}`;
const GUESTS = api(SUBMIT_BOX_ENDPOINTS.guestTickets.path);
const OWNER_ROLES = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SUBMITBOX_OWNER'] as const;
let counter = 0;
const guest = () => `guest-${++counter}@outside.test`;

const ticketCall = (method: string, path: string, ticket: string, body?: unknown) =>
  fetch(`${server.url}${api(path)}`, {
    method,
    headers: { [SUBMIT_TICKET_HEADER]: ticket, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function create(body: Record<string, unknown>, session = owner): Promise<GuestTicket> {
  const response = await call(server, session, 'POST', GUESTS, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as GuestTicket;
}

async function list(session = owner): Promise<GuestTicket[]> {
  const response = await call(server, session, 'GET', GUESTS);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as GuestTicketList).items;
}

/** The token from the mailed link's fragment. */
async function mailedTicket(email: string) {
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(email));
  return { mail, token: linkToken(extractLink(mail, SUBMIT_TICKET_PAGE), 'ticket') };
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', firstName: 'Olga', lastName: 'Owner', roleNames: [...OWNER_ROLES] });
  await createUserAsAdmin(server, admin, { email: 'other@example.test', firstName: 'Otto', lastName: 'Other', roleNames: [...OWNER_ROLES] });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  otherOwner = await signIn(server, 'other@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
  for (const session of [owner, otherOwner]) {
    const response = await call(server, session, 'PUT', api('/submit-box'), { active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_1] });
    expect(response.status, await response.clone().text()).toBe(200);
  }
});
afterAll(() => server?.close());

describe('submit-box guest tickets', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('the owner creates a ticket for a named person: mailed with subject, message and link; used once, then "used"', async () => {
    const email = guest();
    const created = await create({ email: ` ${email.toUpperCase()} `, subject: 'Claim 4711: <your> documents', message: 'Please send the invoice & the photos.', validDays: 3, language: 'de' });
    expect(created).toMatchObject({ email, subject: 'Claim 4711: <your> documents', message: 'Please send the invoice & the photos.', state: 'unused', usedAt: null, revokedAt: null });
    expect(created.expiresAt - created.createdAt).toBe(3 * 86_400_000);

    const { mail, token } = await mailedTicket(email);
    expect(mail.subject).toContain('Claim 4711: <your> documents');
    expect(mail.text).toContain('Olga Owner');
    expect(mail.text).toContain('Please send the invoice & the photos.');
    expect(mail.html).toContain('Please send the invoice &amp; the photos.');
    expect(mail.text).toContain(new Date(created.expiresAt).toISOString().slice(0, 10));

    const state = await ticketCall('GET', SUBMIT_TICKET_PATHS.ticket, token);
    expect(state.status, await state.clone().text()).toBe(200);
    expect(await state.json()).toMatchObject({ ownerName: 'Olga Owner', submitterEmail: email });
    const started = await ticketCall('POST', SUBMIT_TICKET_PATHS.start, token, { message: 'Here they are.' });
    expect(started.status, await started.clone().text()).toBe(201);
    const { deliveryUuid } = (await started.json()) as SubmitStartResponse;
    // The ticket's subject names the delivery.
    const delivery = await server.app.db.selectFrom('deliveries').select('subject').where('uuid', '=', deliveryUuid).executeTakeFirstOrThrow();
    expect(delivery.subject).toBe('Claim 4711: <your> documents');

    const [listed] = await list();
    expect(listed).toMatchObject({ ticketUuid: created.ticketUuid, state: 'used' });
    expect(listed!.usedAt).not.toBeNull();
    await expectBackendError(await ticketCall('POST', SUBMIT_TICKET_PATHS.start, token, { message: 'again' }), 409, SUBMIT_BOX_ERRORS.ticketUsed);
    // A used ticket cannot be revoked: its submission stays.
    await expectBackendError(await call(server, owner, 'DELETE', `${GUESTS}/${created.ticketUuid}`), 409, SUBMIT_BOX_ERRORS.ticketUsed);
  });

  it('revoked: the link says so on the ticket page and at use; the list shows "revoked"; revoking twice is fine', async () => {
    const email = guest();
    const created = await create({ email, validDays: 7 });
    const { token } = await mailedTicket(email);
    expect((await call(server, owner, 'DELETE', `${GUESTS}/${created.ticketUuid}`)).status).toBe(204);
    expect((await call(server, owner, 'DELETE', `${GUESTS}/${created.ticketUuid}`)).status).toBe(204);
    await expectBackendError(await ticketCall('GET', SUBMIT_TICKET_PATHS.ticket, token), 409, SUBMIT_BOX_ERRORS.ticketRevoked);
    await expectBackendError(await ticketCall('POST', SUBMIT_TICKET_PATHS.start, token, { message: 'x' }), 409, SUBMIT_BOX_ERRORS.ticketRevoked);
    expect((await list()).find((t) => t.ticketUuid === created.ticketUuid)).toMatchObject({ state: 'revoked' });
    expect(await server.app.db.selectFrom('deliveries').select('id').where('subject', 'like', `%${email}%`).execute()).toEqual([]);
  });

  it('expired: listed as "expired" and its link is refused', async () => {
    const email = guest();
    const created = await create({ email, validDays: 1 });
    const { token } = await mailedTicket(email);
    await server.app.db.updateTable('submit_tickets').set({ expires_at: Date.now() - 1 }).where('uuid', '=', created.ticketUuid).execute();
    expect((await list()).find((t) => t.ticketUuid === created.ticketUuid)).toMatchObject({ state: 'expired' });
    await expectBackendError(await ticketCall('GET', SUBMIT_TICKET_PATHS.ticket, token), 404, SUBMIT_BOX_ERRORS.notFound);
  });

  it('who may call: only box owners, each their own tickets; bad input is a 400 in the error shape', async () => {
    const created = await create({ email: guest(), validDays: 2 });
    for (const [method, path, body] of [['GET', GUESTS], ['POST', GUESTS, { email: guest(), validDays: 2 }], ['DELETE', `${GUESTS}/${created.ticketUuid}`]] as const) {
      await expectBackendError(await call(server, plain, method, path, body), 403, 'AccessDeniedException');
      await expectBackendError(await call(server, null, method, path, body), 401);
    }
    // Another owner neither sees nor revokes it.
    expect((await list(otherOwner)).map((t) => t.ticketUuid)).not.toContain(created.ticketUuid);
    await expectBackendError(await call(server, otherOwner, 'DELETE', `${GUESTS}/${created.ticketUuid}`), 404, 'NotFoundException');
    expect((await list()).find((t) => t.ticketUuid === created.ticketUuid)).toMatchObject({ state: 'unused' });
    await expectBackendError(await call(server, owner, 'DELETE', `${GUESTS}/no-such-ticket`), 404, 'NotFoundException');

    for (const body of [
      { email: 'not-an-address', validDays: 2 },
      { email: guest(), validDays: 0 },
      { email: guest(), validDays: 91 },
      { email: guest() },
      { email: guest(), validDays: 2, subject: 'x'.repeat(201) },
      { email: guest(), validDays: 2, colour: 'red' },
    ]) {
      await expectBackendError(await call(server, owner, 'POST', GUESTS, body), 400, 'ValidationException');
    }
    // An inactive box takes no tickets.
    expect((await call(server, otherOwner, 'PUT', api('/submit-box'), { active: false })).status).toBe(200);
    await expectBackendError(await call(server, otherOwner, 'POST', GUESTS, { email: guest(), validDays: 2 }), 409, SUBMIT_BOX_ERRORS.notEnabled);
  });
});
