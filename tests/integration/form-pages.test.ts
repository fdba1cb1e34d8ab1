import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { FormHistory } from '@shared/contract/form-admin';
import { FORM_PAGES_MAX } from '@shared/contract/form-pages';
import { FORM_ERRORS, type Form, type FormInput, type PublicForm } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// Process pages of web forms (shared/contract/form-pages.ts) against the real server (SQLite, or
// PostgreSQL with KUVERT_TEST_DATABASE_URL): pages saved and read in order, fields on their pages,
// the §5 page rules with their §8 answer, page texts in the Translations JSON, the history entry,
// and a submission that is still checked over every page.

let server: TestServer;
let owner: Session;
const api = (path: string) => `/api/2${path}`;
const publicCall = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${api(path)}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
let counter = 0;

const PAGES = [
  { id: 'person', title: 'About you', description: 'Who is asking' },
  { id: 'request', title: 'Your request' },
];

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Stepped ${n}`,
    url: `stepped-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['recipient@example.test'],
    processPages: PAGES,
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1, page: 'person' },
      { name: 'Contact', type: 'email', page: 'person' },
      { name: 'Topic', type: 'dropdown', required: true, options: ['Sales', 'Support'], page: 'request' },
      { name: 'Note', type: 'text', textAreaSize: 3 },
    ],
    ...overrides,
  };
}

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const response = await call(server, owner, 'POST', api('/forms'), formInput(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

async function put(form: Form, changes: Partial<FormInput>): Promise<Response> {
  const { formUuid: _u, createdBy: _c, createdAt: _a, updatedAt: _t, link: _l, ...input } = form;
  return call(server, owner, 'PUT', api(`/forms/${form.formUuid}`), { ...input, ...changes });
}

async function refused(input: FormInput) {
  const error = await expectBackendError(await call(server, owner, 'POST', api('/forms'), input), 400, 'ValidationException');
  expect(error.message).toBe('The form has invalid settings');
  return error.metadata.problems as { field: string; reason: string }[];
}

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: 50 } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

describe('form process pages', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('saves and reads pages in order with each field on its page; the public page gets them; a form without pages has none', async () => {
    const form = await createForm();
    expect(form.processPages).toEqual([{ id: 'person', title: 'About you', description: 'Who is asking', icon: null, condition: null }, { id: 'request', title: 'Your request', description: '', icon: null, condition: null }]);
    expect(form.customFields.map((f) => f.page)).toEqual(['person', 'person', 'request', null]);
    const read = (await (await call(server, owner, 'GET', api(`/forms/${form.formUuid}`))).json()) as Form;
    expect(read.processPages).toEqual(form.processPages);
    const publicForm = (await (await publicCall('GET', `/public-forms/${form.url}`)).json()) as PublicForm;
    expect(publicForm.processPages).toEqual(form.processPages);
    expect(publicForm.customFields.map((f) => [f.name, f.page])).toEqual([['Full name', 'person'], ['Contact', 'person'], ['Topic', 'request'], ['Note', null]]);

    // Reorder and rename: the ids stay, so the fields keep their pages.
    const reordered = [{ id: 'request', title: 'What you need', description: '', icon: null, condition: null }, { id: 'person', title: 'About you', description: 'Who is asking', icon: null, condition: null }];
    const response = await put(form, { processPages: reordered });
    expect(response.status, await response.clone().text()).toBe(200);
    const saved = (await response.json()) as Form;
    expect(saved.processPages).toEqual(reordered);
    expect(saved.customFields.map((f) => f.page)).toEqual(['person', 'person', 'request', null]);

    const plain = await createForm({ processPages: undefined, customFields: [{ name: 'Full name', type: 'text', textAreaSize: 1 }] });
    expect(plain.processPages).toEqual([]);
    expect(plain.customFields[0]!.page).toBeNull();
  });

  it('a form copied as a template keeps its pages and the pages of its fields', async () => {
    const source = await createForm();
    const response = await call(server, owner, 'POST', api('/forms/from-template'), { template: source.formUuid, name: 'Stepped copy', url: 'stepped-copy' });
    expect(response.status, await response.clone().text()).toBe(201);
    const copy = (await response.json()) as Form;
    expect(copy.processPages).toEqual(source.processPages);
    expect(copy.customFields.map((f) => f.page)).toEqual(source.customFields.map((f) => f.page));
  });

  it('history: a page change is an entry naming the process pages', async () => {
    const form = await createForm();
    expect((await put(form, { processPages: [PAGES[0]!, { ...PAGES[1]!, title: 'Renamed' }] })).status).toBe(200);
    const history = (await (await call(server, owner, 'GET', api(`/forms/${form.formUuid}/history`))).json()) as FormHistory;
    expect(history.entries[0]!.action).toBe('updated');
    expect(history.entries[0]!.changes).toEqual([{ field: 'processPages', before: null, after: null }]);
  });

  it('§5: unknown page of a field, empty title, duplicate or malformed ids → 400 with the problems; too many pages → 400; nothing stored', async () => {
    const before = await server.app.db.selectFrom('forms').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    const unknown = formInput();
    unknown.customFields![2] = { ...unknown.customFields![2]!, page: 'nope' };
    expect(await refused(unknown)).toEqual([{ field: 'customFields.2.page', reason: 'unknownPage' }]);
    // A form without pages takes fields without a page only.
    expect(await refused(formInput({ processPages: [] }))).toEqual([
      { field: 'customFields.0.page', reason: 'unknownPage' },
      { field: 'customFields.1.page', reason: 'unknownPage' },
      { field: 'customFields.2.page', reason: 'unknownPage' },
    ]);
    expect(await refused(formInput({ processPages: [PAGES[0]!, { ...PAGES[1]!, title: '  ' }] }))).toEqual([{ field: 'processPages.1.title', reason: 'pageTitleOrIcon' }]);
    expect(await refused(formInput({ processPages: [PAGES[0]!, PAGES[1]!, { id: 'person', title: 'Again' }] }))).toEqual([{ field: 'processPages.2.id', reason: 'invalidPageOrder' }]);
    expect(await refused(formInput({ processPages: [PAGES[0]!, PAGES[1]!, { id: 'a b', title: 'Space' }] }))).toEqual([
      { field: 'processPages.2.id', reason: 'invalidPageOrder' },
      { field: 'processPages.2.fields', reason: 'emptyPage' },
    ]);
    // A page no field is on (issue 33 §2): the visitor would meet an empty step.
    expect(await refused(formInput({ processPages: [PAGES[0]!, { id: 'empty', title: 'Nothing here' }, PAGES[1]!] }))).toEqual([{ field: 'processPages.1.fields', reason: 'emptyPage' }]);
    const many = Array.from({ length: FORM_PAGES_MAX + 1 }, (_, i) => ({ id: `p${i}`, title: `Page ${i}` }));
    await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ processPages: [...PAGES, ...many] })), 400, 'ValidationException');
    const after = await server.app.db.selectFrom('forms').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // A field without a page counts on the first page: a first page holding only those is not empty.
    const firstByDefault = formInput({ processPages: [{ id: 'start', title: 'Start' }, PAGES[1]!] });
    firstByDefault.customFields = firstByDefault.customFields!.map((f) => ({ ...f, page: f.page === 'request' ? 'request' : null }));
    expect((await call(server, owner, 'POST', api('/forms'), firstByDefault)).status).toBe(201);
  });

  it('page icons: saved and read, a page with an icon needs no title, an unknown icon → 400; pages stored before icons read as none', async () => {
    const form = await createForm({ processPages: [{ ...PAGES[0]!, icon: 'person' }, { id: 'request', title: '', icon: 'upload' }] });
    expect(form.processPages.map((p) => [p.id, p.title, p.icon])).toEqual([['person', 'About you', 'person'], ['request', '', 'upload']]);
    const publicForm = (await (await publicCall('GET', `/public-forms/${form.url}`)).json()) as PublicForm;
    expect(publicForm.processPages.map((p) => p.icon)).toEqual(['person', 'upload']);
    const changed = await put(form, { processPages: [{ ...form.processPages[0]!, icon: null }, { ...form.processPages[1]!, icon: 'signature' }] });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(((await changed.json()) as Form).processPages.map((p) => p.icon)).toEqual([null, 'signature']);

    expect(await refused(formInput({ processPages: [PAGES[0]!, { id: 'request', title: ' ', icon: null }] }))).toEqual([{ field: 'processPages.1.title', reason: 'pageTitleOrIcon' }]);
    const unknownIcon = await call(server, owner, 'POST', api('/forms'), { ...formInput(), processPages: [{ ...PAGES[0]!, icon: 'rocket' }, PAGES[1]] });
    await expectBackendError(unknownIcon, 400, 'ValidationException');

    // A row written before issue 16 (no icon key) and one with an icon dropped from the list.
    const legacy = JSON.stringify([{ id: 'person', title: 'About you', description: '' }, { id: 'request', title: 'Your request', description: '', icon: 'gone' }]);
    await server.app.db.updateTable('forms').set({ process_pages: legacy }).where('uuid', '=', form.formUuid).execute();
    const read = (await (await call(server, owner, 'GET', api(`/forms/${form.formUuid}`))).json()) as Form;
    expect(read.processPages.map((p) => [p.id, p.icon])).toEqual([['person', null], ['request', null]]);
  });

  it('translations: labels and hints per field, titles and descriptions per page; unknown names, ids or keys refused', async () => {
    for (const bad of [
      { de: { pages: { nope: { title: 'x' } } } },
      { de: { pages: { person: { label: 'x' } } } },
      { de: { pages: { person: 'Über Sie' } } },
      { fr: { fields: { 'Full name': { label: 3 } } } },
      { fr: { fields: { 'Full name': { title: 'x' } } } },
      { en: { fields: { Unknown: { label: 'x' } } } },
      { de: { fields: { Topic: { options: ['Vertrieb'] } } } },
      { de: { fields: { Topic: { options: { Sales: 1 } } } } },
    ]) {
      expect(await refused(formInput({ translations: JSON.stringify(bad) })), JSON.stringify(bad)).toEqual([{ field: 'translations', reason: 'unknownTranslationKey' }]);
    }
    const translations = { de: { fields: { 'Full name': { label: 'Vollständiger Name', hint: 'Vor- und Nachname' }, Contact: 'Ihre Adresse', Topic: { options: { Sales: 'Vertrieb' } } }, pages: { person: { title: 'Über Sie', description: 'Wer fragt' }, request: { title: 'Ihr Anliegen' } } } };
    const form = await createForm({ translations: JSON.stringify(translations) });
    const publicForm = (await (await publicCall('GET', `/public-forms/${form.url}`)).json()) as PublicForm;
    expect(publicForm.translations).toEqual(translations);
  });

  it('a submission is checked over every page: a required field of the second page missing → 400 naming it; all filled → 201', async () => {
    const form = await createForm();
    const missing = await expectBackendError(await publicCall('POST', `/public-forms/${form.url}/submissions`, { values: { 'Full name': 'Pat' } }), 400, FORM_ERRORS.fieldInvalid);
    expect(missing.metadata.problems).toEqual([{ field: 'Topic', reason: 'required' }]);
    const done = await publicCall('POST', `/public-forms/${form.url}/submissions`, { values: { 'Full name': 'Pat', Topic: 'Sales', Note: 'Thanks' } });
    expect(done.status, await done.clone().text()).toBe(201);
    // A translated option text is only shown: the value submitted is the option itself.
    const translated = await createForm({ translations: JSON.stringify({ de: { fields: { Topic: { options: { Sales: 'Vertrieb' } } } } }) });
    const shownText = await expectBackendError(await publicCall('POST', `/public-forms/${translated.url}/submissions`, { values: { 'Full name': 'Pat', Topic: 'Vertrieb' } }), 400, FORM_ERRORS.fieldInvalid);
    expect(shownText.metadata.problems).toEqual([{ field: 'Topic', reason: 'invalidOption' }]);
  });
});
