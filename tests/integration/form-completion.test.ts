import { createHash, randomBytes } from 'node:crypto';
import { createApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { getPublicForm } from '@shared/api/endpoints/forms';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import type { Form, FormInput, FormSubmitResponse } from '@shared/contract/forms';
import { createCryptoService } from '@shared/crypto/service';
import { downloadE2eFile, openE2eDelivery, submitFormDelivery } from '@shared/transfer';
import { addressedTo, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSubmission, FORM_SUBMISSION_COMPLETED_JOB, sweepAbandonedSubmissions } from '../../server/forms/submission-completion';
import { SESSION_ABSOLUTE_TIMEOUT_MS } from '../../server/sessions/sessions-store';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

// The completion of a form submission (server/forms/submission-completion.ts) against the real
// server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL): the confirmation mail goes out when
// the delivery is sent, exactly once, and never for a submission that is not; the per-submission
// submitter account of level 3/4 is disabled at completion and after an abandoned submission's
// session is over, while the delivery, its sender and its signatures stay intact.

let server: TestServer;
let admin: Session;
let formsAdmin: Session;
let alice: E2eActor; // recipient with SecuPass
const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let counter = 0;

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const n = ++counter;
  const input: FormInput = {
    name: `Completion ${n}`,
    url: `completion-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['alice@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Contact', type: 'email' },
    ],
    ...overrides,
  };
  const response = await call(server, formsAdmin, 'POST', api('/forms'), input);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

async function start(form: Form, values: Record<string, string>): Promise<FormSubmitResponse> {
  const response = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}/submissions`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values, language: 'en' }) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as FormSubmitResponse;
}

const sendWith = (started: FormSubmitResponse) =>
  fetch(`${server.url}${api(DELIVERY_PATHS.send(started.deliveryUuid))}`, { method: 'POST', headers: { authorization: `Bearer ${started.sessionToken}` } });

/** Runs every due job (the completion jobs the sends queued) to its end. */
async function runJobs(): Promise<void> {
  server.app.jobs.kick();
  await server.app.jobs.whenIdle();
}

const confirmationsTo = async (address: string) => (await readMailbox(server.mailboxDir)).filter((m) => addressedTo(address)(m) && m.text.includes('Thank you for your request'));
const userByUuid = (uuid: string) => server.app.db.selectFrom('users').select(['id', 'disabled', 'email', 'first_name']).where('uuid', '=', uuid).executeTakeFirstOrThrow();

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: 50, uploadPartSize: 1024 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'forms@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'alice@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'], licensed: true });
  formsAdmin = await signIn(server, 'forms@example.test', 'Good-Passw0rd');
  alice = await e2eActor(server, await signIn(server, 'alice@example.test', 'Good-Passw0rd'));
}, 60_000);
afterAll(() => server?.close());

describe('form submission completion', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('confirmation mail: none while the submission is open, none for one never sent, exactly one when the delivery is sent', async () => {
    const form = await createForm({ admin: { confirmationMailText: 'Thank you for your request.' } });
    const abandoned = await start(form, { 'Full name': 'Pat', Contact: 'never-sent@outside.test' });
    const completed = await start(form, { 'Full name': 'Pat', Contact: 'sent@outside.test' });
    await runJobs();
    expect(await confirmationsTo('sent@outside.test')).toEqual([]);

    expect((await sendWith(completed)).status).toBe(200);
    await runJobs();
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('sent@outside.test'));
    expect(mail.subject).toContain(form.name);
    // A second send is refused (409) and queues nothing; the job run again finds the mail sent.
    await expectBackendError(await sendWith(completed), 409);
    const submission = await server.app.db
      .selectFrom('form_submissions as f')
      .innerJoin('deliveries as d', 'd.id', 'f.delivery_id')
      .select('f.id')
      .where('d.uuid', '=', completed.deliveryUuid)
      .executeTakeFirstOrThrow();
    await completeSubmission(server.app, submission.id);
    await runJobs();
    expect(await confirmationsTo('sent@outside.test')).toHaveLength(1);

    // The abandoned one: past its session's lifetime, swept — still no mail.
    expect(await sweepAbandonedSubmissions(server.app, Date.now() + SESSION_ABSOLUTE_TIMEOUT_MS + 1)).toBe(0); // level 1: no submitter account to close
    await runJobs();
    expect(await confirmationsTo('never-sent@outside.test')).toEqual([]);
    expect(abandoned.submitterUserUuid).toBeNull();
    // Level 1 submissions are sent by the form's sender account, which the completion never touches.
    expect(Number((await server.app.db.selectFrom('users').select('disabled').where('email', '=', 'forms@example.test').executeTakeFirstOrThrow()).disabled)).toBe(0);
  });

  it('a mail server that fails is retried by the job; the mail still goes out once', async () => {
    const form = await createForm({ admin: { confirmationMailText: 'Thank you for your request.' } });
    const started = await start(form, { 'Full name': 'Pat', Contact: 'retry@outside.test' });
    const send = server.app.mailer.send.bind(server.app.mailer);
    let failures = 1;
    server.app.mailer.send = async (mail) => {
      if (mail.to === 'retry@outside.test' && failures-- > 0) throw new Error('mail server down');
      return send(mail);
    };
    try {
      expect((await sendWith(started)).status).toBe(200);
      await runJobs();
      expect(await confirmationsTo('retry@outside.test')).toEqual([]);
      const job = await server.app.db.selectFrom('jobs').select(['attempts', 'last_error']).where('kind', '=', FORM_SUBMISSION_COMPLETED_JOB).executeTakeFirstOrThrow();
      expect(job.last_error).toContain('mail server down');
      await server.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('kind', '=', FORM_SUBMISSION_COMPLETED_JOB).execute();
      await runJobs();
      expect(await confirmationsTo('retry@outside.test')).toHaveLength(1);
      expect(await server.app.db.selectFrom('jobs').select('id').where('kind', '=', FORM_SUBMISSION_COMPLETED_JOB).execute()).toEqual([]);
    } finally {
      server.app.mailer.send = send;
    }
  });

  it('level 3: the submission\'s submitter account is disabled at completion and after an abandoned session; the delivery stays readable and signed', async () => {
    await giveSecuPass(alice, 'Alice-Completion-SecuPass-Larch-63');
    const form = await createForm({ securityLevel: SECURITY_LEVELS.LEVEL_3, customFields: [{ name: 'Full name', type: 'text', required: true, textAreaSize: 1 }] });
    const page = await getPublicForm(createApiClient({ backendUrl: server.url }), form.formUuid);
    const bytes = randomBytes(3000);
    const { started, result } = await submitFormDelivery({
      client: createApiClient({ backendUrl: server.url }),
      backendUrl: server.url,
      formId: form.formUuid,
      form: page,
      body: { values: { 'Full name': 'Paula' } },
      files: [{ name: 'scan.bin', blob: new Blob([bytes]) }],
      crypto: createCryptoService(),
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    await runJobs();
    const account = await userByUuid(started.submitterUserUuid!);
    expect(Number(account.disabled)).toBe(1);
    expect(account.first_name).toBe(form.name);
    expect(await server.app.db.selectFrom('sessions').select('id').where('user_id', '=', account.id).execute()).toEqual([]);
    await expectBackendError(await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}`)}`, { headers: { authorization: `Bearer ${started.sessionToken}` } }), 401);

    // The recipient still opens it: sender and signer are the (disabled) submitter account; the bytes verify.
    const opened = await openE2eDelivery({ client: alice.client, deliveryUuid: started.deliveryUuid, e2e: e2eOf(alice) });
    expect(opened.signer.email).toBe(account.email);
    const file = opened.files.find((f) => f.name === 'scan.bin')!;
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: alice.crypto, url: deliveryContentUrl(started.deliveryUuid, file.fileId, null, server.url), fetch: alice.fetch });
    expect(sha256(new Uint8Array(await blob.arrayBuffer()))).toBe(sha256(bytes));
    await opened.close();

    // Abandoned: started, never sent. Open while its session lives; closed once the session is over.
    const open = await start(form, {});
    expect(open.submitterUserUuid).not.toBeNull();
    expect(await sweepAbandonedSubmissions(server.app)).toBe(0);
    expect(Number((await userByUuid(open.submitterUserUuid!)).disabled)).toBe(0);
    expect(await sweepAbandonedSubmissions(server.app, Date.now() + SESSION_ABSOLUTE_TIMEOUT_MS + 1)).toBe(1);
    expect(Number((await userByUuid(open.submitterUserUuid!)).disabled)).toBe(1);
    await expectBackendError(await sendWith(open), 401);
    // A second sweep finds nothing left to close.
    expect(await sweepAbandonedSubmissions(server.app, Date.now() + SESSION_ABSOLUTE_TIMEOUT_MS + 1)).toBe(0);
  }, 120_000);

  it('the confirmation text fills {field:…}, {formName} and {date} (escaped in the HTML part, the values dropped once mailed); unknown placeholders and, at level 3, field placeholders are refused at save', async () => {
    const form = await createForm({ admin: { confirmationMailText: 'We received your claim, {field:Full name}.\n\nForm {formName} on {date}; reply to {field:Contact}.' } });
    const started = await start(form, { 'Full name': 'Pat <b>Partner</b>', Contact: 'placeholders@outside.test' });
    const row = () => server.app.db.selectFrom('form_submissions as f').innerJoin('deliveries as d', 'd.id', 'f.delivery_id').select('f.confirmation_values').where('d.uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
    expect(JSON.parse((await row()).confirmation_values!)).toEqual({ 'Full name': 'Pat <b>Partner</b>', Contact: 'placeholders@outside.test' });
    expect((await sendWith(started)).status).toBe(200);
    await runJobs();
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('placeholders@outside.test'));
    const today = new Date().toISOString().slice(0, 10);
    expect(mail.text).toContain('We received your claim, Pat <b>Partner</b>.');
    expect(mail.text).toContain(`Form ${form.name} on ${today}; reply to placeholders@outside.test.`);
    expect(mail.html).toContain('We received your claim, Pat &lt;b&gt;Partner&lt;/b&gt;.');
    expect(mail.html).not.toContain('<b>Partner');
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/\{(field:|formName|date)/);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect((await row()).confirmation_values).toBeNull();

    const n = ++counter;
    const input = { name: `Completion ${n}`, url: `completion-${n}`, active: true, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['alice@example.test'], customFields: [{ name: 'Full name', type: 'text', required: true, textAreaSize: 1 }] };
    for (const [confirmationMailText, placeholder] of [['Hello {field:Nope}', '{field:Nope}'], ['Hello {oops}', '{oops}'], ['Half {formName', undefined]] as const) {
      const unknown = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), { ...input, admin: { confirmationMailText } }), 400, 'ValidationException');
      expect(unknown.metadata.problems, confirmationMailText).toContainEqual({ field: 'admin.confirmationMailText', reason: 'unknownPlaceholder', ...(placeholder ? { placeholder } : {}) });
    }
    const level3 = { ...input, securityLevel: SECURITY_LEVELS.LEVEL_3 };
    const encrypted = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), { ...level3, admin: { confirmationMailText: 'Thanks, {field:Full name}' } }), 400, 'ValidationException');
    expect(encrypted.metadata.problems).toContainEqual({ field: 'admin.confirmationMailText', reason: 'encryptedFieldPlaceholder' });
    // {formName} and {date} need no values: accepted at level 3 too.
    const accepted = await call(server, formsAdmin, 'POST', api('/forms'), { ...level3, admin: { confirmationMailText: 'Thanks for {formName} on {date}' } });
    expect(accepted.status, await accepted.clone().text()).toBe(201);
  }, 60_000);
});
