import { createHash } from 'node:crypto';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { DELIVERY_PATHS, DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_ERRORS, type Form, type FormInput, type FormList, type FormSubmitResponse, type PublicForm } from '@shared/contract/forms';
import { blobUpload, sendDelivery } from '@shared/transfer';
import { addressedTo, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { captchaAnswer } from './escalation-helpers';
import { testFileBytes } from '@tests/support/files';

// Web forms against the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
// administration and its denials, the §5 save rules and §8 answers, the licence cap on active
// forms, the public page's states, and a submission through the ordinary upload engine.

const ACTIVE_FORMS_CAP = 3;
let server: TestServer;
let admin: Session;
let formsAdmin: Session; // ROLE_SECUFORMS
let plain: Session; // no forms role
let recipient: Session;

const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let counter = 0;

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Application ${n}`,
    url: `application-${n}`,
    active: false,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['recipient@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Reference', type: 'text', regex: 'REF-[0-9]{4}', textAreaSize: 1 },
      { name: 'Topic', type: 'dropdown', required: true, options: ['Sales', 'Support'] },
      { name: 'Contact', type: 'email' },
      { name: 'Documents', type: 'file', maxFileSizeKb: 10, allowedFileTypes: '.pdf,.bin' },
      { name: 'Summary', type: 'textTemplate', defaultValue: '{field:Full name} asks about {field:Topic}' },
    ],
    ...overrides,
  };
}

async function createForm(overrides: Partial<FormInput> = {}, session = formsAdmin): Promise<Form> {
  const response = await call(server, session, 'POST', api('/forms'), formInput(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

const publicCall = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${api(path)}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

function bearerClient(token: string): ApiClient {
  return createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }) });
}

const goodValues = { 'Full name': 'Paula Partner', Reference: 'REF-1234', Topic: 'Support', Contact: 'paula@outside.test' };

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: ACTIVE_FORMS_CAP, uploadPartSize: 1024 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'forms@example.test', firstName: 'Fiona', lastName: 'Forms', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  formsAdmin = await signIn(server, 'forms@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
  recipient = await signIn(server, 'recipient@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());
beforeEach(async () => {
  await forgetFailures(server);
  // Each test starts with no active form (the licence cap counts them).
  await server.app.db.updateTable('forms').set({ active: 0 }).execute();
});

describe('web forms', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('ROLE_SECUFORMS and ROLE_ADMIN only: others are refused', async () => {
    const form = await createForm();
    expect((await call(server, null, 'GET', api('/forms'))).status).toBe(401);
    for (const [method, path, body] of [
      ['GET', '/forms', undefined],
      ['POST', '/forms', formInput()],
      ['GET', `/forms/${form.formUuid}`, undefined],
      ['PUT', `/forms/${form.formUuid}`, formInput()],
      ['DELETE', `/forms/${form.formUuid}`, undefined],
    ] as const) {
      await expectBackendError(await call(server, plain, method, api(path), body), 403, 'AccessDeniedException');
    }
    // Without the anti-forgery value a cookie write is refused.
    await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput(), { csrf: null }), 403, 'CsrfTokenException');
    const list = (await (await call(server, admin, 'GET', api('/forms'))).json()) as FormList;
    expect(list.items.map((f) => f.formUuid)).toContain(form.formUuid);
  });

  it('create, read, update, delete with custom fields, disclaimer and translations', async () => {
    const form = await createForm({ disclaimerEnabled: true, disclaimerText: 'We keep your data for 30 days.', translations: '{"de":{"name":"Antrag"}}', layout: { successTitle: 'Thanks', description: '', successMessage: '', redirectUrl: '' } });
    expect(form).toMatchObject({ active: false, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['recipient@example.test'], senderEmail: null, createdBy: 'forms@example.test', disclaimerEnabled: true });
    // The public link shows the form's slug (issue 33 §2), and the page answers there.
    expect(form.link).toBe(`${server.url}/form/${form.url}`);
    expect(form.url).not.toBe('');
    expect(form.customFields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['Full name', 'text', true],
      ['Reference', 'text', false],
      ['Topic', 'dropdown', true],
      ['Contact', 'email', false],
      ['Documents', 'file', false],
      ['Summary', 'textTemplate', false],
    ]);
    expect(form.customFields[4]).toMatchObject({ maxFileSizeKb: 10, allowedFileTypes: '.pdf,.bin' });
    const got = (await (await call(server, formsAdmin, 'GET', api(`/forms/${form.formUuid}`))).json()) as Form;
    expect(got).toEqual(form);

    const changed = { ...formInput({ name: 'Renamed', url: 'renamed-form', customFields: [{ name: 'Only', type: 'checkbox', options: ['a', 'b'] }] }) };
    const updated = await call(server, formsAdmin, 'PUT', api(`/forms/${form.formUuid}`), changed);
    expect(updated.status, await updated.clone().text()).toBe(200);
    const after = (await updated.json()) as Form;
    expect(after).toMatchObject({ formUuid: form.formUuid, name: 'Renamed', url: 'renamed-form', disclaimerEnabled: false });
    expect(after.customFields.map((f) => f.name)).toEqual(['Only']);

    expect((await call(server, formsAdmin, 'DELETE', api(`/forms/${form.formUuid}`))).status).toBe(204);
    await expectBackendError(await call(server, formsAdmin, 'GET', api(`/forms/${form.formUuid}`)), 404, FORM_ERRORS.notFound);
    await expectBackendError(await call(server, formsAdmin, 'DELETE', api(`/forms/${form.formUuid}`)), 404, FORM_ERRORS.notFound);
  });

  it('every §5 save rule answers 400/409 in the §8 shape; nothing is stored', async () => {
    const before = await server.app.db.selectFrom('forms').select('id').execute();
    const cases: Array<[Partial<FormInput> | Record<string, unknown>, string]> = [
      [{ name: '  ' }, 'name'],
      [{ url: '' }, 'url'],
      [{ url: 'Not A Slug' }, 'url'],
      [{ mandatoryRecipients: [], optionalRecipients: [] }, 'mandatoryRecipients'],
      [{ mandatoryRecipients: ['not-an-address'] }, 'mandatoryRecipients.0'],
      [{ disclaimerText: 'Hello <b>you</b>' }, 'disclaimerText'],
      [{ disclaimerEnabled: true, disclaimerText: '' }, 'disclaimerText'],
      [{ translations: '{not json' }, 'translations'],
      [{ translations: '{"es":{}}' }, 'translations'],
      [{ customFields: [{ name: '', type: 'email' }] }, 'customFields.0.name'],
      [{ customFields: [{ name: 'T', type: 'text', textAreaSize: 11 }] }, 'customFields.0.textAreaSize'],
      [{ customFields: [{ name: 'T', type: 'text' }] }, 'customFields.0.textAreaSize'],
      [{ customFields: [{ name: 'R', type: 'radio', options: [] }] }, 'customFields.0.options'],
      [{ customFields: [{ name: 'F', type: 'file' }] }, 'customFields.0.maxFileSizeKb'],
      [{ customFields: [{ name: 'L', type: 'link', defaultValue: 'nowhere' }] }, 'customFields.0.defaultValue'],
      [{ customFields: [{ name: 'X', type: 'email', regex: '(' }] }, 'customFields.0.regex'],
      [{ customFields: [{ name: 'D', type: 'date', startDate: '2026-13-01' }] }, 'customFields.0.startDate'],
      [{ customFields: [{ name: 'A', type: 'email' }, { name: 'a', type: 'email' }] }, 'customFields.1.name'],
      [{ senderEmail: 'nobody@example.test' }, 'senderEmail'],
    ];
    for (const [overrides, field] of cases) {
      const error = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput(overrides as Partial<FormInput>)), 400, 'ValidationException');
      expect((error.metadata.problems as Array<{ field: string }>).map((p) => p.field), JSON.stringify(overrides)).toContain(field);
    }
    for (const body of [{ ...formInput(), colour: 'red' }, { ...formInput(), securityLevel: 5 }, { ...formInput(), customFields: [{ name: 'x', type: 'hologram' }] }, {}]) {
      await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), body), 400, 'ValidationException');
    }
    // Another account as the sender: an administrator only.
    const other = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ senderEmail: 'plain@example.test' })), 400, 'ValidationException');
    expect(other.metadata.problems).toContainEqual({ field: 'senderEmail', reason: 'senderNotAllowed' });
    const byAdmin = await createForm({ senderEmail: 'forms@example.test' }, admin);
    expect(byAdmin).toMatchObject({ senderEmail: 'forms@example.test', createdBy: server.admin.email });
    const existing = await createForm();
    await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ name: existing.name.toUpperCase() })), 409, FORM_ERRORS.duplicateName);
    await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ url: existing.url })), 409, FORM_ERRORS.duplicateUrl);
    // Issue 28: the one name rule's character part; names stored and compared in NFC.
    for (const [name, reason] of [['Pay\u202Eroll', 'bidiControl'], ['Form\u200B', 'zeroWidth'], ['\uFEFFForm', 'zeroWidth'], ['Two\nlines', 'controlCharacters']] as const) {
      const refused = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ name })), 400, 'ValidationException');
      expect(refused.metadata.problems).toContainEqual({ field: 'name', reason });
    }
    // A custom field's name: the same rule (problem at `customFields.<i>.name`), stored in NFC.
    for (const [name, reason] of [['E\u202Email', 'bidiControl'], ['Mail\u200B', 'zeroWidth'], ['Two\nlines', 'controlCharacters']] as const) {
      const refused = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ customFields: [{ name, type: 'email' }] })), 400, 'ValidationException');
      expect(refused.metadata.problems).toContainEqual({ field: 'customFields.0.name', reason });
    }
    const fieldForm = await createForm({ customFields: [{ name: 'Caf\u0065\u0301: e-mail?', type: 'email' }] });
    expect(fieldForm.customFields.map((f) => f.name)).toEqual(['Café: e-mail?']);
    const composed = await createForm({ name: 'Caf\u0065\u0301 contact: sales?' });
    expect(composed.name).toBe('Café contact: sales?');
    await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ name: 'CAFÉ CONTACT: SALES?' })), 409, FORM_ERRORS.duplicateName);
    expect(await server.app.db.selectFrom('forms').select('id').execute()).toHaveLength(before.length + 4);
  });

  it('parallel saves of one name: exactly one form, the others 409 (never a 500)', async () => {
    const name = `Parallel ${++counter}`;
    const answers = await Promise.all([0, 1, 2, 3].map((i) => call(server, formsAdmin, 'POST', api('/forms'), formInput({ name, url: `parallel-${counter}-${i}` }))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) await expectBackendError(answer, 409, FORM_ERRORS.duplicateName);
    expect(await server.app.db.selectFrom('forms').select('id').where('name', '=', name).execute()).toHaveLength(1);
  });

  it('activating beyond the licence cap: 409 LicenseLimitExceededException with the figures', async () => {
    const forms = [await createForm({ active: true }), await createForm({ active: true }), await createForm({ active: true })];
    const third = await createForm();
    const refused = await expectBackendError(await call(server, formsAdmin, 'PUT', api(`/forms/${third.formUuid}`), { ...formInput({ name: third.name, url: third.url }), active: true }), 409, 'LicenseLimitExceededException');
    expect(refused.metadata).toMatchObject({ licence: 'activeForms', cap: ACTIVE_FORMS_CAP, used: ACTIVE_FORMS_CAP, requested: 1 });
    await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ active: true })), 409, 'LicenseLimitExceededException');
    // Saving an already active form again takes no second licence.
    const again = await call(server, formsAdmin, 'PUT', api(`/forms/${forms[0]!.formUuid}`), formInput({ name: forms[0]!.name, url: forms[0]!.url, active: true }));
    expect(again.status).toBe(200);
    const overview = (await (await call(server, admin, 'GET', api('/admin/licence'))).json()) as { licences: Array<{ kind: string; used: number }> };
    expect(overview.licences.find((l) => l.kind === 'activeForms')?.used).toBe(ACTIVE_FORMS_CAP);
    // Deactivating frees a licence.
    await call(server, formsAdmin, 'PUT', api(`/forms/${forms[1]!.formUuid}`), formInput({ name: forms[1]!.name, url: forms[1]!.url, active: false }));
    expect((await call(server, formsAdmin, 'PUT', api(`/forms/${third.formUuid}`), formInput({ name: third.name, url: third.url, active: true }))).status).toBe(200);
  });

  it('the public page: by id or URL, and its §8 states', async () => {
    const form = await createForm({ active: true, optionalRecipients: ['plain@example.test'] });
    const page = (await (await publicCall('GET', `/public-forms/${form.formUuid}`)).json()) as PublicForm;
    expect(page).toMatchObject({ formUuid: form.formUuid, name: form.name, securityLevel: SECURITY_LEVELS.LEVEL_1, optionalRecipients: ['plain@example.test'], recipientChoiceRequired: false });
    expect(JSON.stringify(page)).not.toContain('recipient@example.test'); // mandatory recipients stay hidden
    expect(((await (await publicCall('GET', `/public-forms/${form.url}`)).json()) as PublicForm).formUuid).toBe(form.formUuid);
    await expectBackendError(await publicCall('GET', '/public-forms/no-such-form'), 404, FORM_ERRORS.notFound);
    await call(server, formsAdmin, 'PUT', api(`/forms/${form.formUuid}`), formInput({ name: form.name, url: form.url, active: false }));
    await expectBackendError(await publicCall('GET', `/public-forms/${form.formUuid}`), 409, FORM_ERRORS.inactive);
    await expectBackendError(await publicCall('POST', `/public-forms/${form.formUuid}/submissions`, { values: goodValues }), 409, FORM_ERRORS.inactive);
    // The sending account gone: invalid recipient configuration.
    const orphan = await createForm({ active: true });
    await server.app.db.updateTable('forms').set({ sender_user_id: null }).where('uuid', '=', orphan.formUuid).execute();
    await expectBackendError(await publicCall('GET', `/public-forms/${orphan.formUuid}`), 409, FORM_ERRORS.invalidRecipients);
  });

  it('submissions: every value checked on the server, disclaimer, captcha, recipients, only-authenticated', async () => {
    const form = await createForm({ active: true, captcha: true, disclaimerEnabled: true, disclaimerText: 'I agree.' });
    const submit = (body: Record<string, unknown>) => publicCall('POST', `/public-forms/${form.formUuid}/submissions`, body);
    const captcha = async () => {
      const issued = (await (await publicCall('GET', '/auth/captcha')).json()) as { captchaId: string };
      return { captchaId: issued.captchaId, captchaAnswer: await captchaAnswer(server, issued.captchaId) };
    };
    const deliveriesBefore = await server.app.db.selectFrom('deliveries').select('id').execute();
    const base = { values: goodValues, disclaimerAccepted: true };
    const fieldCases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...goodValues, 'Full name': '' }, 'Full name', 'required'],
      [{ ...goodValues, Reference: 'REF-12' }, 'Reference', 'regexMismatch'],
      [{ ...goodValues, Topic: 'Gossip' }, 'Topic', 'invalidOption'],
      [{ ...goodValues, Contact: 'not-mail' }, 'Contact', 'invalidEmail'],
      [{ ...goodValues, Documents: [{ name: 'big.pdf', size: 11 * 1024 }] }, 'Documents', 'fileTooLarge'],
      [{ ...goodValues, Documents: [{ name: 'run.exe', size: 10 }] }, 'Documents', 'fileTypeNotAllowed'],
      [{ ...goodValues, Documents: [{ name: 'a.pdf', size: 10 }, { name: 'a.pdf', size: 12 }] }, 'Documents', 'duplicateFile'],
      [{ ...goodValues, Summary: 'typed' }, 'Summary', 'invalidValue'],
      [{ ...goodValues, Unknown: 'x' }, 'Unknown', 'unknownField'],
    ];
    for (const [values, field, reason] of fieldCases) {
      const error = await expectBackendError(await submit({ ...base, values, ...(await captcha()) }), 400, FORM_ERRORS.fieldInvalid);
      expect(error.metadata.problems).toContainEqual({ field, reason });
    }
    await expectBackendError(await submit({ ...base, disclaimerAccepted: false, ...(await captcha()) }), 400, 'ValidationException');
    await expectBackendError(await submit({ ...base, captchaId: 'x', captchaAnswer: 'y' }), 400, FORM_ERRORS.wrongCaptcha);
    await expectBackendError(await submit(base), 400, FORM_ERRORS.wrongCaptcha);
    await expectBackendError(await submit({ ...base, chosenRecipients: ['stranger@outside.test'], ...(await captcha()) }), 400, 'ValidationException');
    await expectBackendError(await submit({ ...base, values: 'nope' }), 400, 'ValidationException');
    expect(await server.app.db.selectFrom('deliveries').select('id').execute()).toHaveLength(deliveriesBefore.length);
    expect((await submit({ ...base, ...(await captcha()) })).status).toBe(201);

    // Optional recipients only: the submitter must choose one.
    const choice = await createForm({ active: true, mandatoryRecipients: [], optionalRecipients: ['recipient@example.test'] });
    const choose = (chosenRecipients: string[]) => publicCall('POST', `/public-forms/${choice.formUuid}/submissions`, { values: goodValues, chosenRecipients });
    const none = await expectBackendError(await choose([]), 400, 'ValidationException');
    expect(none.metadata.problems).toContainEqual({ field: 'chosenRecipients', reason: 'noRecipients' });
    expect((await choose(['Recipient@example.test'])).status).toBe(201);

    // Only authenticated senders: anonymous 401, a signed-in user (with anti-forgery value) 201.
    const closed = await createForm({ active: true, onlyAuthenticated: true });
    const closedPath = api(`/public-forms/${closed.formUuid}/submissions`);
    await expectBackendError(await publicCall('POST', `/public-forms/${closed.formUuid}/submissions`, { values: goodValues }), 401, 'AuthenticationRequiredException');
    await expectBackendError(await call(server, plain, 'POST', closedPath, { values: goodValues }, { csrf: null }), 403, 'AccessDeniedException');
    expect((await call(server, plain, 'POST', closedPath, { values: goodValues })).status).toBe(201);
  });

  it('files over the size limit: TransferQuotaExceededException with required and allowed sizes (SPEC §8 form submit)', async () => {
    const form = await createForm({ active: true });
    const response = await publicCall('POST', `/public-forms/${form.url}/submissions`, { values: { ...goodValues, Documents: [{ name: 'scan.pdf', size: 3000, type: 'application/pdf' }] }, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    const started = (await response.json()) as FormSubmitResponse;
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 2000 });
    try {
      // The public page learns the total it may upload (it shows it beside each file field).
      expect(((await (await publicCall('GET', `/public-forms/${form.formUuid}`)).json()) as PublicForm).maxUploadSize).toBe(2000);
      const announce = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files`)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${started.sessionToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'scan.pdf', size: 3000, mimeType: 'application/pdf' }),
      });
      const over = await expectBackendError(announce, 413, 'TransferQuotaExceededException');
      expect(over.metadata).toEqual({ allowedSize: 2000, requiredSize: 3000 });
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 10 * 1024 ** 3 });
    }
  });

  it('a submission is a delivery to the recipients through the upload engine; the session reaches its draft only', async () => {
    const form = await createForm({ active: true });
    const response = await publicCall('POST', `/public-forms/${form.url}/submissions`, { values: { ...goodValues, Documents: [{ name: 'scan.pdf', size: 3000, type: 'application/pdf' }] }, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    const started = (await response.json()) as FormSubmitResponse;
    expect(started.securityLevel).toBe(SECURITY_LEVELS.LEVEL_1);

    const bearer = { authorization: `Bearer ${started.sessionToken}` };
    await expectBackendError(await fetch(`${server.url}${api('/forms')}`, { headers: bearer }), 403, 'AccessDeniedException');
    await expectBackendError(await fetch(`${server.url}${api('/deliveries/inbox')}`, { headers: bearer }), 403, 'AccessDeniedException');
    const other = await call(server, formsAdmin, 'POST', api(DELIVERY_PATHS.create), { recipients: ['plain@example.test'], subject: 'Other', body: 'b', securityLevel: 0 });
    const otherUuid = ((await other.json()) as { deliveryUuid: string }).deliveryUuid;
    await expectBackendError(await fetch(`${server.url}${api(DELIVERY_PATHS.send(otherUuid))}`, { method: 'POST', headers: bearer }), 403, 'AccessDeniedException');

    const bytes = testFileBytes(3000);
    const result = await sendDelivery({
      client: bearerClient(started.sessionToken),
      draft: { deliveryUuid: started.deliveryUuid },
      files: [{ name: 'scan.pdf', blob: new Blob([bytes], { type: 'application/pdf' }) }],
      transform: async (source) => blobUpload(source.blob),
    });
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);

    const inbox = (await (await call(server, recipient, 'GET', api('/deliveries/inbox'))).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
    expect(inbox.items.find((e) => e.deliveryUuid === started.deliveryUuid)?.subject).toBe(`Form "${form.name}": new submission`);
    const detail = (await (await call(server, recipient, 'GET', api(`/deliveries/${started.deliveryUuid}`))).json()) as { body: string; files: Array<{ fileId: string; name: string }> };
    expect(detail.body).toContain('Full name: Paula Partner');
    expect(detail.body).toContain('Topic: Support');
    expect(detail.body).toContain('Paula Partner asks about Support');
    const file = detail.files.find((f) => f.name === 'scan.pdf')!;
    const content = await fetch(`${server.url}${api(DELIVERY_PATHS.content(started.deliveryUuid, file.fileId))}`, { headers: { cookie: recipient.cookie } });
    expect(sha256(new Uint8Array(await content.arrayBuffer()))).toBe(sha256(bytes));
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('recipient@example.test')(m) && m.subject.includes(form.name));
  });
});
