import { createApiClient, type ApiClient } from '@shared/api/client';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { SUBMIT_TICKET_PAGE, SUBMIT_TICKET_PATHS, type SubmitBox, type SubmitStartResponse } from '@shared/contract/submit-box';
import { SUBMIT_TICKET_HEADER } from '@shared/contract/link-token';
import { blobUpload, sendDelivery } from '@shared/transfer';
import { extractLink, type MailboxMail } from '@tests/support/mailbox';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '@tests/support/server';
import { startTestSmtpServer, type TestSmtpServer } from '@tests/support/smtp';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

// The submit box's notification setting (issue 16 §1) with a real SMTP server in-process: the
// owner is mailed about a submission when the setting is on, and not when it is off (the
// submission is in the inbox either way). SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL.

let smtp: TestSmtpServer;
let server: TestServer;
let owner: Session;
const OWNER = 'notify-owner@example.test';
const api = (path: string) => `/api/2${path}`;
const to = (address: string) => (mail: ParsedMail) => JSON.stringify(mail.to ?? '').toLowerCase().includes(address);
let counter = 0;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({ config: { smtpUrl: smtp.url } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: OWNER, firstName: 'Nora', lastName: 'Notify', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SUBMITBOX_OWNER'] }, { prove: false });
  // The first sign-in's code comes over SMTP too.
  await proveAddress(server, OWNER, 'Good-Passw0rd', async () => (await smtp.waitForMail((m) => to(OWNER)(m) && /^\s*\d{6}\s*$/m.test(m.text ?? ''))).text ?? '');
  owner = await signIn(server, OWNER, 'Good-Passw0rd');
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function box(changes?: Record<string, unknown>): Promise<SubmitBox> {
  const response = changes ? await call(server, owner, 'PUT', api('/submit-box'), changes) : await call(server, owner, 'GET', api('/submit-box'));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SubmitBox;
}

function bearerClient(token: string): ApiClient {
  return createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }) });
}

/** A partner asks for a ticket (mailed over SMTP), uses it and sends one file; returns the partner's address. */
async function submitOnce(boxUuid: string): Promise<string> {
  const email = `notify-partner-${++counter}@outside.test`;
  const asked = await fetch(`${server.url}${api(`/submit-boxes/${boxUuid}/tickets`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(asked.status, await asked.clone().text()).toBe(202);
  const mail = await smtp.waitForMail(to(email));
  const link = extractLink({ text: mail.text ?? '', subject: mail.subject ?? '' } as MailboxMail, SUBMIT_TICKET_PAGE);
  const ticket = new URLSearchParams(link.hash.slice(1)).get('ticket')!;
  const started = await fetch(`${server.url}${api(SUBMIT_TICKET_PATHS.start)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SUBMIT_TICKET_HEADER]: ticket },
    body: JSON.stringify({ message: 'For you.' }),
  });
  expect(started.status, await started.clone().text()).toBe(201);
  const session = (await started.json()) as SubmitStartResponse;
  const result = await sendDelivery({
    client: bearerClient(session.sessionToken),
    draft: { deliveryUuid: session.deliveryUuid },
    files: [{ name: 'a.bin', blob: new Blob([testFileBytes(500)]) }],
    transform: async (source) => blobUpload(source.blob),
  });
  expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
  return email;
}

async function inboxSubjects(): Promise<string[]> {
  const inbox = await call(server, owner, 'GET', api('/deliveries/inbox'));
  return ((await inbox.json()) as { items: Array<{ subject: string }> }).items.map((i) => i.subject);
}

describe('submit box notification setting', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('is on for a new box, stored, and refuses bad input', async () => {
    const first = await box();
    expect(first.notifyOnSubmit).toBe(true);
    await expectBackendError(await call(server, owner, 'PUT', api('/submit-box'), { notifyOnSubmit: 'no' }), 400, 'ValidationException');
    expect((await box({ notifyOnSubmit: false })).notifyOnSubmit).toBe(false);
    expect((await box()).notifyOnSubmit).toBe(false);
    // Other changes leave it alone.
    expect((await box({ validityDays: 3 })).notifyOnSubmit).toBe(false);
    expect((await box({ notifyOnSubmit: true })).notifyOnSubmit).toBe(true);
  });

  it('on: the owner is mailed about the submission; off: no mail, the submission is in the inbox', async () => {
    const { boxUuid } = await box({ active: true, allowedLevels: [SECURITY_LEVELS.LEVEL_2], notifyOnSubmit: true });
    const loud = await submitOnce(boxUuid);
    // The send answered after the SMTP server accepted the mail (the mailer awaits it).
    const mail = await smtp.waitForMail((m) => to(OWNER)(m) && (m.subject ?? '').includes(loud));
    expect(mail.text).toContain('/inbox/');

    await box({ notifyOnSubmit: false });
    const before = smtp.received.filter(to(OWNER)).length;
    const quiet = await submitOnce(boxUuid);
    expect(smtp.received.filter(to(OWNER)).length).toBe(before);
    expect(smtp.received.some((m) => (m.subject ?? '').includes(quiet))).toBe(false);
    const subjects = await inboxSubjects();
    expect(subjects).toContain(`Submit box: submission from ${quiet}`);
    expect(subjects).toContain(`Submit box: submission from ${loud}`);
    const row = await server.app.db.selectFrom('delivery_recipients as r').innerJoin('deliveries as d', 'd.id', 'r.delivery_id').select(['r.notified_at', 'd.quiet']).where('d.subject', '=', `Submit box: submission from ${quiet}`).executeTakeFirstOrThrow();
    expect(row).toEqual({ notified_at: null, quiet: 1 });
  });
});
