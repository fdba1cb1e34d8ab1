import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { FormHistory } from '@shared/contract/form-admin';
import type { ProcessService, ProcessServiceSecret } from '@shared/contract/flows';
import { FORM_ERRORS, type Form, type FormInput, type FormList } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_TEMPLATE_IDS, type FormTemplateList } from '@shared/contract/form-templates';
import type { FormSubmitResponse } from '@shared/contract/forms';
import { addressedTo, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// Form administration against the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
// the History tab, who may edit a form (creator, editors, administrators), templates, allowed
// submitters, subject templates and the confirmation mail.

let server: TestServer;
let admin: Session;
let owner: Session; // ROLE_SECUFORMS, creates the forms
let colleague: Session; // ROLE_SECUFORMS, not an editor until added
let plain: Session; // no forms role
let submitterSession: Session; // ROLE_SUBMITTER

const api = (path: string) => `/api/2${path}`;
const publicCall = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${api(path)}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
/** Sends a started submission's delivery with its session (no files: the message carries the values). */
async function complete(started: FormSubmitResponse): Promise<void> {
  const response = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/send`)}`, { method: 'POST', headers: { authorization: `Bearer ${started.sessionToken}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  server.app.jobs.kick();
}
const deliveryOf = (started: FormSubmitResponse) => server.app.db.selectFrom('deliveries').select(['subject', 'quiet']).where('uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
let counter = 0;

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Request ${n}`,
    url: `request-${n}`,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['recipient@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Contact', type: 'email' },
    ],
    ...overrides,
  };
}

async function createForm(overrides: Partial<FormInput> = {}, session = owner): Promise<Form> {
  const response = await call(server, session, 'POST', api('/forms'), formInput(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

async function put(form: Form, changes: Partial<FormInput>, session = owner): Promise<Response> {
  const { formUuid: _u, createdBy: _c, createdAt: _a, updatedAt: _t, link: _l, ...input } = form;
  return call(server, session, 'PUT', api(`/forms/${form.formUuid}`), { ...input, ...changes });
}

async function history(formUuid: string, session = owner, query = ''): Promise<FormHistory> {
  const response = await call(server, session, 'GET', api(`/forms/${formUuid}/history${query}`));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as FormHistory;
}

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: 50 } });
  admin = await signInAdmin(server);
  const formsRoles = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] as const;
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', roleNames: [...formsRoles], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'colleague@example.test', roleNames: [...formsRoles], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'submitter@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SUBMITTER'] });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  colleague = await signIn(server, 'colleague@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
  submitterSession = await signIn(server, 'submitter@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

describe('form administration', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('history: create, update, activate, deactivate and delete are recorded with who and what', async () => {
    const form = await createForm();
    const response = await put(form, { name: `${form.name} renamed`, captcha: true, customFields: [{ name: 'Only', type: 'text', textAreaSize: 2 }] });
    expect(response.status, await response.clone().text()).toBe(200);
    const renamed = (await response.json()) as Form;
    expect((await put(renamed, { active: true })).status).toBe(200);
    // Saving without a difference leaves no entry.
    expect((await put({ ...renamed, active: true }, {})).status).toBe(200);
    expect((await put(renamed, { active: false }, admin)).status).toBe(200);

    const got = await history(form.formUuid);
    expect(got.total).toBe(4);
    expect(got.entries.map((e) => [e.action, e.actor])).toEqual([
      ['deactivated', server.admin.email.toLowerCase()],
      ['activated', 'owner@example.test'],
      ['updated', 'owner@example.test'],
      ['created', 'owner@example.test'],
    ]);
    const updated = got.entries[2]!;
    expect(updated.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', before: form.name, after: `${form.name} renamed` },
        { field: 'captcha', before: 'false', after: 'true' },
        { field: 'customFields', before: null, after: null },
      ]),
    );
    expect(updated.changes.map((c) => c.field)).not.toContain('url');
    expect(got.entries[1]!.changes).toEqual([{ field: 'active', before: 'false', after: 'true' }]);
    expect(got.entries[3]!.changes.map((c) => c.field)).toEqual(expect.arrayContaining(['name', 'url', 'securityLevel', 'mandatoryRecipients', 'customFields']));

    // Paged, newest first.
    const page2 = await history(form.formUuid, owner, '?page=2&pageSize=3');
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.entries.map((e) => e.action)).toEqual(['created']);

    // Deleted: the entry is recorded; only an administrator still reads the history.
    expect((await call(server, owner, 'DELETE', api(`/forms/${form.formUuid}`))).status).toBe(204);
    await expectBackendError(await call(server, owner, 'GET', api(`/forms/${form.formUuid}/history`)), 403, 'AccessDeniedException');
    const afterDelete = await history(form.formUuid, admin);
    expect(afterDelete.entries[0]).toMatchObject({ action: 'deleted', actor: 'owner@example.test', changes: [{ field: 'name', before: `${form.name} renamed`, after: null }] });
  });

  it('history and the form itself: another ROLE_SECUFORMS user and users without the role get 403; unknown form 404', async () => {
    const form = await createForm();
    await expectBackendError(await call(server, colleague, 'GET', api(`/forms/${form.formUuid}/history`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, plain, 'GET', api(`/forms/${form.formUuid}/history`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', api(`/forms/${form.formUuid}/history`)), 401);
    await expectBackendError(await call(server, owner, 'GET', api('/forms/no-such-form/history')), 404, FORM_ERRORS.notFound);
    await expectBackendError(await call(server, owner, 'GET', api(`/forms/${form.formUuid}/history?pageSize=0`)), 400, 'ValidationException');
    expect((await history(form.formUuid, admin)).total).toBe(1);
    // The list shows a ROLE_SECUFORMS user only the forms they may edit; reading, changing, deleting another's form: 403.
    const listed = async (session: Session) => ((await (await call(server, session, 'GET', api('/forms'))).json()) as FormList).items.map((f) => f.formUuid);
    expect(await listed(owner)).toContain(form.formUuid);
    expect(await listed(admin)).toContain(form.formUuid);
    expect(await listed(colleague)).not.toContain(form.formUuid);
    await expectBackendError(await call(server, colleague, 'GET', api(`/forms/${form.formUuid}`)), 403, 'AccessDeniedException');
    await expectBackendError(await put(form, { name: 'Taken over' }, colleague), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, colleague, 'DELETE', api(`/forms/${form.formUuid}`)), 403, 'AccessDeniedException');
    expect((await history(form.formUuid)).total).toBe(1);
  });

  it('the process service (Flows) follows the form: another ROLE_SECUFORMS user cannot read it, rotate its secret or point its webhook elsewhere', async () => {
    const form = await createForm();
    const path = api(`/forms/${form.formUuid}/process-service`);
    const made = await call(server, owner, 'POST', `${path}/secret`);
    expect(made.status).toBe(201);
    const ownSecret = (await made.json()) as ProcessServiceSecret;
    expect((await call(server, owner, 'PUT', path, { enabled: true, webhookUrl: '' })).status).toBe(200);
    // Role without edit rights on this form (its id is public in its link): 403 on every call.
    for (const session of [colleague, plain]) {
      await expectBackendError(await call(server, session, 'GET', path), 403, 'AccessDeniedException');
      await expectBackendError(await call(server, session, 'PUT', path, { enabled: true, webhookUrl: 'https://93.184.215.14/steal' }), 403, 'AccessDeniedException');
      await expectBackendError(await call(server, session, 'POST', `${path}/secret`), 403, 'AccessDeniedException');
    }
    await expectBackendError(await call(server, null, 'GET', path), 401);
    await expectBackendError(await call(server, colleague, 'GET', api('/forms/no-such-form/process-service')), 404, FORM_ERRORS.notFound);
    // Nothing changed: same webhook, same secret.
    const row = await server.app.db.selectFrom('form_flows').innerJoin('forms', 'forms.id', 'form_flows.form_id').select(['form_flows.webhook_url', 'form_flows.secret_created_at']).where('forms.uuid', '=', form.formUuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ webhook_url: '', secret_created_at: ownSecret.secretCreatedAt });
    // Creator, editor and administrator may.
    expect(((await (await call(server, owner, 'GET', path)).json()) as ProcessService).secretSet).toBe(true);
    expect((await call(server, admin, 'GET', path)).status).toBe(200);
    expect((await call(server, admin, 'POST', `${path}/secret`)).status).toBe(201);
    expect((await put(form, { admin: { editors: ['colleague@example.test'] } })).status).toBe(200);
    expect((await call(server, colleague, 'GET', path)).status).toBe(200);
    expect((await call(server, colleague, 'PUT', path, { enabled: false, webhookUrl: '' })).status).toBe(200);
    expect((await call(server, colleague, 'POST', `${path}/secret`)).status).toBe(201);
  });

  it('Users tab: editors (ROLE_SECUFORMS only) may edit, read and see the form; removed, they are refused again', async () => {
    const form = await createForm();
    const bad = await expectBackendError(await put(form, { admin: { editors: ['plain@example.test'] } }), 400, 'ValidationException');
    expect(bad.metadata.problems).toContainEqual({ field: 'admin.editors.0', reason: 'notFormsUser' });
    const unknown = await expectBackendError(await put(form, { admin: { editors: ['nobody@example.test'] } }), 400, 'ValidationException');
    expect(unknown.metadata.problems).toContainEqual({ field: 'admin.editors.0', reason: 'unknownUser' });
    const response = await put(form, { admin: { editors: ['Colleague@example.test'] } });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as Form).admin.editors).toEqual(['colleague@example.test']);

    const asColleague = await call(server, colleague, 'GET', api(`/forms/${form.formUuid}`));
    expect(asColleague.status).toBe(200);
    const shared = (await asColleague.json()) as Form;
    expect((await put(shared, { captcha: true }, colleague)).status).toBe(200);
    expect(((await (await call(server, colleague, 'GET', api('/forms'))).json()) as FormList).items.map((f) => f.formUuid)).toContain(form.formUuid);
    const got = await history(form.formUuid, colleague);
    expect(got.entries[0]).toMatchObject({ action: 'updated', actor: 'colleague@example.test', changes: [{ field: 'captcha', before: 'false', after: 'true' }] });
    expect(got.entries[1]!.changes).toEqual([{ field: 'editors', before: '', after: 'colleague@example.test' }]);

    expect((await put({ ...shared, captcha: true }, { admin: { editors: [] } })).status).toBe(200);
    await expectBackendError(await call(server, colleague, 'GET', api(`/forms/${form.formUuid}`)), 403, 'AccessDeniedException');
  });

  it('Users tab: an only-authenticated form takes the listed users and ROLE_SUBMITTER holders only', async () => {
    const values = { 'Full name': 'Pat' };
    const form = await createForm({ active: true, onlyAuthenticated: true, admin: { submitters: ['colleague@example.test'] } });
    expect(form.admin).toMatchObject({ submitters: ['colleague@example.test'], submitterRole: false });
    const path = api(`/public-forms/${form.formUuid}/submissions`);
    await expectBackendError(await call(server, plain, 'POST', path, { values }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, submitterSession, 'POST', path, { values }), 403, 'AccessDeniedException');
    await expectBackendError(await publicCall('POST', `/public-forms/${form.formUuid}/submissions`, { values }), 401, 'AuthenticationRequiredException');
    expect((await call(server, colleague, 'POST', path, { values })).status).toBe(201);

    expect((await put(form, { admin: { submitters: ['colleague@example.test'], submitterRole: true } })).status).toBe(200);
    expect((await call(server, submitterSession, 'POST', path, { values })).status).toBe(201);
    await expectBackendError(await call(server, plain, 'POST', path, { values }), 403, 'AccessDeniedException');
    const unknown = await expectBackendError(await put(form, { admin: { submitters: ['ghost@example.test'] } }), 400, 'ValidationException');
    expect(unknown.metadata.problems).toContainEqual({ field: 'admin.submitters.0', reason: 'unknownUser' });
  });

  it('templates: built-in ones and own forms; create from either; a stranger cannot copy another form', async () => {
    const source = await createForm({ disclaimerEnabled: true, disclaimerText: 'Kept for 30 days.', admin: { subjectTemplate: 'Copy {field:Full name}', editors: ['colleague@example.test'] } });
    const list = (await (await call(server, owner, 'GET', api('/form-templates'))).json()) as FormTemplateList;
    expect(list.items.filter((t) => t.kind === 'builtIn').map((t) => t.id)).toEqual(BUILT_IN_TEMPLATE_IDS);
    expect(list.items.find((t) => t.id === source.formUuid)).toMatchObject({ kind: 'form', name: source.name, fieldNames: ['Full name', 'Contact'] });
    expect(((await (await call(server, plain, 'GET', api('/form-templates'))).status))).toBe(403);

    for (const id of BUILT_IN_TEMPLATE_IDS) {
      const response = await call(server, owner, 'POST', api('/forms/from-template'), { template: id, name: `From ${id}`, url: `from-${id.toLowerCase()}` });
      expect(response.status, await response.clone().text()).toBe(201);
      const made = (await response.json()) as Form;
      expect(made).toMatchObject({ name: `From ${id}`, active: false, mandatoryRecipients: ['owner@example.test'] });
      expect(made.customFields.length).toBeGreaterThan(2);
      expect((await history(made.formUuid)).entries.map((e) => e.action)).toEqual(['created']);
    }
    const signed = (await (await call(server, owner, 'GET', api('/forms'))).json()) as FormList;
    expect(signed.items.map((f) => f.name)).toContain('From applicationWithSignature');

    const copy = await call(server, owner, 'POST', api('/forms/from-template'), { template: source.formUuid, name: 'Copied', url: 'copied-form' });
    expect(copy.status, await copy.clone().text()).toBe(201);
    const copied = (await copy.json()) as Form;
    expect(copied.customFields).toEqual(source.customFields);
    expect(copied).toMatchObject({ disclaimerText: 'Kept for 30 days.', admin: { subjectTemplate: 'Copy {field:Full name}', editors: [] } });

    await expectBackendError(await call(server, owner, 'POST', api('/forms/from-template'), { template: 'noSuchTemplate', name: 'X', url: 'x-form' }), 404, FORM_ERRORS.notFound);
    const stranger = await createForm({}, admin);
    await expectBackendError(await call(server, owner, 'POST', api('/forms/from-template'), { template: stranger.formUuid, name: 'Stolen', url: 'stolen' }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, owner, 'POST', api('/forms/from-template'), { template: 'contactRequest', name: 'Copied', url: 'other-url' }), 409, FORM_ERRORS.duplicateName);
  });

  it('subject template: unknown placeholders refused on save; the delivery takes the rendered subject; notifications off → quiet send', async () => {
    // Each refusal names the placeholder the form cannot fill (issue 33 §2); a stray brace names none.
    const refused = { '{nope}': '{nope}', 'Re: {field:Missing} from {field:Full name}': '{field:Missing}', 'Half {formName': undefined, '{field:}': '{field:}' };
    for (const [subjectTemplate, placeholder] of Object.entries(refused)) {
      const error = await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ active: true, admin: { subjectTemplate } })), 400, 'ValidationException');
      expect(error.metadata.problems).toContainEqual({ field: 'admin.subjectTemplate', reason: 'unknownPlaceholder', ...(placeholder ? { placeholder } : {}) });
      if (placeholder) expect(error.message).toBe(`The subject template names ${placeholder}, which this form cannot fill`);
    }
    // A draft may name a field created later (refused at publish, not at every draft save);
    // other unknown placeholders are refused in drafts too.
    const draft = await createForm({ admin: { subjectTemplate: 'Re: {field:Policy number}' } });
    await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ admin: { subjectTemplate: '{nope}' } })), 400, 'ValidationException');
    const publish = await expectBackendError(await put(draft, { active: true }), 400, 'ValidationException');
    expect(publish.message).toBe('The subject template names {field:Policy number}, which this form cannot fill');
    expect((await put(draft, { active: true, customFields: [...draft.customFields, { name: 'Policy number', type: 'text', textAreaSize: 1 }] })).status).toBe(200);
    // A field the template names, removed later from a published form: that save is refused and the form keeps both.
    const named = await createForm({ active: true, admin: { subjectTemplate: 'From {field:Contact}' } });
    const removed = await expectBackendError(await put(named, { customFields: named.customFields.filter((f) => f.name !== 'Contact') }), 400, 'ValidationException');
    expect(removed.message).toBe('The subject template names {field:Contact}, which this form cannot fill');
    const kept = (await (await call(server, owner, 'GET', api(`/forms/${named.formUuid}`))).json()) as Form;
    expect(kept.customFields.map((f) => f.name)).toContain('Contact');
    // Removed together with the template's mention: accepted.
    expect((await put(named, { customFields: named.customFields.filter((f) => f.name !== 'Contact'), admin: { ...named.admin, subjectTemplate: '{formName}' } })).status).toBe(200);
    const form = await createForm({ active: true, admin: { subjectTemplate: '{formName}: {field:Full name} on {date}', notifyRecipients: false } });
    const response = await publicCall('POST', `/public-forms/${form.formUuid}/submissions`, { values: { 'Full name': 'Paula\nPartner' } });
    expect(response.status, await response.clone().text()).toBe(201);
    const delivery = await deliveryOf((await response.json()) as FormSubmitResponse);
    expect(delivery.subject).toBe(`${form.name}: Paula Partner on ${new Date().toISOString().slice(0, 10)}`);
    expect(Number(delivery.quiet)).toBe(1);

    const plainForm = await createForm({ active: true });
    const standard = await publicCall('POST', `/public-forms/${plainForm.formUuid}/submissions`, { values: { 'Full name': 'Pat' }, language: 'de' });
    const standardDelivery = await deliveryOf((await standard.json()) as FormSubmitResponse);
    expect(standardDelivery.subject).toBe(`Formular „${plainForm.name}“: neue Einsendung`);
    expect(Number(standardDelivery.quiet)).toBe(0);
  });

  it('confirmation mail: to the email field or the signed-in submitter, in the submission language, only with a text', async () => {
    const form = await createForm({ active: true, admin: { confirmationMailText: 'We have your request.\n\nBest regards' } });
    const expected = { de: 'ist eingegangen', en: 'was received', fr: 'a été reçu' } as const;
    for (const language of ['de', 'en', 'fr'] as const) {
      const to = `partner-${language}@outside.test`;
      const response = await publicCall('POST', `/public-forms/${form.formUuid}/submissions`, { values: { 'Full name': 'Pat', Contact: to }, language });
      expect(response.status).toBe(201);
      // The mail goes out when the submission completes (its delivery is sent).
      await complete((await response.json()) as FormSubmitResponse);
      const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(to));
      expect(mail.subject).toContain(expected[language]);
      expect(mail.subject).toContain(form.name);
      expect(mail.text).toContain('We have your request.');
    }
    const closed = await createForm({ active: true, onlyAuthenticated: true, admin: { confirmationMailText: 'Signed-in thanks' } });
    const signedIn = await call(server, plain, 'POST', api(`/public-forms/${closed.formUuid}/submissions`), { values: { 'Full name': 'Pat' }, language: 'en' });
    expect(signedIn.status).toBe(201);
    await complete((await signedIn.json()) as FormSubmitResponse);
    expect((await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('plain@example.test')(m) && m.text.includes('Signed-in thanks'))).subject).toContain(closed.name);

    // No text: no confirmation (checked once a later submission's confirmation has arrived).
    const silent = await createForm({ active: true });
    const quiet = await publicCall('POST', `/public-forms/${silent.formUuid}/submissions`, { values: { 'Full name': 'Pat', Contact: 'quiet@outside.test' } });
    expect(quiet.status).toBe(201);
    await complete((await quiet.json()) as FormSubmitResponse);
    const marker = await publicCall('POST', `/public-forms/${form.formUuid}/submissions`, { values: { 'Full name': 'Pat', Contact: 'marker@outside.test' } });
    expect(marker.status).toBe(201);
    await complete((await marker.json()) as FormSubmitResponse);
    await waitForMailboxMail(server.mailboxDir, addressedTo('marker@outside.test'));
    expect((await readMailbox(server.mailboxDir)).filter(addressedTo('quiet@outside.test'))).toEqual([]);
  });

  it('layout and translations: colours and translation keys checked on save; the public page gets the appearance and the texts', async () => {
    const colour = await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ admin: { appearance: { primaryColor: 'red' } } })), 400, 'ValidationException');
    expect(colour.metadata.problems).toContainEqual({ field: 'admin.appearance.primaryColor', reason: 'invalidColour' });
    for (const translations of ['{"de":{"title":"x"}}', '{"fr":{"fields":{"Nope":"x"}}}', '{"en":{"name":1}}']) {
      const error = await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ translations })), 400, 'ValidationException');
      expect(error.metadata.problems, translations).toContainEqual({ field: 'translations', reason: 'unknownTranslationKey' });
    }
    const invalid = await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ translations: '{"de":' })), 400, 'ValidationException');
    expect(invalid.metadata.problems).toContainEqual({ field: 'translations', reason: 'invalidJson' });

    const appearance = { primaryColor: '#123456', textColor: '#222', transparency: 20, darkTheme: true, showCompanyLogo: false };
    const translations = JSON.stringify({ de: { name: 'Anfrage', description: 'Bitte ausfüllen', fields: { 'Full name': 'Vor- und Nachname' } } });
    const form = await createForm({ active: true, translations, admin: { appearance } });
    const page = (await (await publicCall('GET', `/public-forms/${form.url}`)).json()) as { appearance: unknown; translations: unknown };
    expect(page.appearance).toEqual(appearance);
    expect(page.translations).toEqual(JSON.parse(translations));
  });
});

