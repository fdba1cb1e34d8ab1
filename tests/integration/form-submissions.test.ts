import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_ADMIN_ENDPOINTS } from '@shared/contract/endpoints/form-admin';
import type { FormSubmissionList } from '@shared/contract/form-submissions';
import { FORM_ERRORS, type Form, type FormInput, type FormSubmitResponse } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// A form's submissions list and CSV export (issue 33 §1) against the real server (SQLite, or
// PostgreSQL with KUVERT_TEST_DATABASE_URL): who may read them, the values kept for level 1,
// the CSV's encoding per locale.

let server: TestServer;
let admin: Session;
let owner: Session; // ROLE_SECUFORMS, creates the forms; language de
let editor: Session; // ROLE_SECUFORMS, an editor of the forms; language fr
let colleague: Session; // ROLE_SECUFORMS, not an editor
let plain: Session; // no forms role

const api = (path: string) => `/api/2${path}`;
const listPath = (form: Form, query = '') => api(FORM_ADMIN_ENDPOINTS.submissions.path.replace('{formUuid}', form.formUuid)) + query;
const csvPath = (form: Form) => api(FORM_ADMIN_ENDPOINTS.submissionsCsv.path.replace('{formUuid}', form.formUuid));
const ROLES = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] as const;
let counter = 0;

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const n = ++counter;
  const input: FormInput = {
    name: `Claims ${n}`,
    url: `claims-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['recipient@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 3 },
      { name: 'Consent', type: 'checkbox', options: ['Terms', 'Newsletter'] },
      { name: 'Documents', type: 'file', maxFileSizeKb: 10, allowedFileTypes: '.pdf' },
      { name: 'Help', type: 'link', defaultValue: 'https://example.test/help' },
    ],
    admin: { editors: ['editor@example.test'] },
    ...overrides,
  };
  const response = await call(server, owner, 'POST', api('/forms'), input);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

async function submit(form: Form, values: Record<string, unknown>): Promise<FormSubmitResponse> {
  const response = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}/submissions`)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ values }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as FormSubmitResponse;
}

async function list(form: Form, session: Session, query = ''): Promise<FormSubmissionList> {
  const response = await call(server, session, 'GET', listPath(form, query));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as FormSubmissionList;
}

async function csv(form: Form, session: Session): Promise<{ bytes: Uint8Array; text: string; disposition: string }> {
  const response = await call(server, session, 'GET', csvPath(form));
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/csv');
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), disposition: response.headers.get('content-disposition') ?? '' };
}

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: 50 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', roleNames: [...ROLES], licensed: true, language: 'de' });
  await createUserAsAdmin(server, admin, { email: 'editor@example.test', roleNames: [...ROLES], licensed: true, language: 'fr' });
  await createUserAsAdmin(server, admin, { email: 'colleague@example.test', roleNames: [...ROLES], licensed: true, language: 'en' });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  editor = await signIn(server, 'editor@example.test', 'Good-Passw0rd');
  colleague = await signIn(server, 'colleague@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

describe('form submissions list and export', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('lists level-1 submissions newest first with their values (choices joined, files by name), paged; sent vs open', async () => {
    const form = await createForm();
    const first = await submit(form, { 'Full name': 'Anna Alpha', Consent: ['Terms'], Documents: [{ name: 'claim.pdf', size: 10 }] });
    await submit(form, { 'Full name': 'Bert Beta', Consent: ['Terms', 'Newsletter'] });
    // The first one is sent (no files uploaded: sending needs them, so it is marked as its completion would).
    await server.app.db.updateTable('form_submissions').set({ completed_at: Date.now() }).where('delivery_id', '=', server.app.db.selectFrom('deliveries').select('id').where('uuid', '=', first.deliveryUuid)).execute();

    const got = await list(form, owner);
    expect(got.columns).toEqual(['Full name', 'Consent', 'Documents']);
    expect(got.total).toBe(2);
    expect(got.submissions.map((s) => [s.submitter, s.securityLevel, s.state, s.values])).toEqual([
      [null, SECURITY_LEVELS.LEVEL_1, 'open', { 'Full name': 'Bert Beta', Consent: 'Terms, Newsletter', Documents: '' }],
      [null, SECURITY_LEVELS.LEVEL_1, 'sent', { 'Full name': 'Anna Alpha', Consent: 'Terms', Documents: 'claim.pdf' }],
    ]);
    expect(got.submissions[1]!.deliveryUuid).toBe(first.deliveryUuid);

    const page2 = await list(form, owner, '?page=2&pageSize=1');
    expect(page2).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(page2.submissions.map((s) => s.values?.['Full name'])).toEqual(['Anna Alpha']);
  });

  it('a submission from before values were kept lists and exports without values (the administrator reads in English)', async () => {
    const form = await createForm();
    await submit(form, { 'Full name': 'Old Timer' });
    await server.app.db.updateTable('form_submissions').set({ submission_values: null }).where('form_id', '=', server.app.db.selectFrom('forms').select('id').where('uuid', '=', form.formUuid)).execute();
    expect((await list(form, owner)).submissions[0]!.values).toBeNull();
    expect((await csv(form, admin)).text.split('\r\n')[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,Anonymous,1,Open,,,$/);
  });

  it('CSV: a byte order mark, the separator of the caller’s language, headers in it, quotes around separator, quote and line break', async () => {
    const form = await createForm();
    await submit(form, { 'Full name': 'Doe; "Jo"\nJunior, Sr', Consent: ['Newsletter'] });

    const de = await csv(form, owner);
    expect([...de.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, row, end] = de.text.slice(1).split('\r\n');
    expect(header).toBe('Zeit (UTC);Absender;Sicherheitsstufe;Status;Full name;Consent;Documents');
    expect(row).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d;Anonym;1;Offen;"Doe; ""Jo""\nJunior, Sr";Newsletter;$/);
    expect(end).toBe('');
    expect(de.disposition).toContain(`${form.url}-submissions-`);

    const fr = await csv(form, editor);
    expect(fr.text.slice(1).split('\r\n')[0]).toBe('Heure (UTC);Expéditeur;Niveau de sécurité;État;Full name;Consent;Documents');

    const en = await csv(form, admin);
    const [enHeader, enRow] = en.text.slice(1).split('\r\n');
    expect(enHeader).toBe('Time (UTC),Submitter,Security level,State,Full name,Consent,Documents');
    // English: the comma separates, so the value holding one is quoted; the semicolon alone would not be.
    expect(enRow).toMatch(/,Anonymous,1,Open,"Doe; ""Jo""\nJunior, Sr",Newsletter,$/);
  });

  it('the signed-in submitter of an only-authenticated form is named', async () => {
    const form = await createForm({ onlyAuthenticated: true, admin: { editors: ['editor@example.test'], submitters: ['colleague@example.test'] } });
    const response = await call(server, colleague, 'POST', api(`/public-forms/${form.formUuid}/submissions`), { values: { 'Full name': 'Col League' } });
    expect(response.status, await response.clone().text()).toBe(201);
    expect((await list(form, editor)).submissions[0]).toMatchObject({ submitter: 'colleague@example.test', values: { 'Full name': 'Col League' } });
  });

  it('who may read: creator, editors, administrators; another forms user and users without the role 403; signed out 401; unknown form 404; bad paging 400', async () => {
    const form = await createForm();
    await submit(form, { 'Full name': 'Secret Person' });
    for (const session of [owner, editor, admin]) expect((await list(form, session)).total).toBe(1);
    for (const session of [colleague, plain]) {
      await expectBackendError(await call(server, session, 'GET', listPath(form)), 403, 'AccessDeniedException');
      await expectBackendError(await call(server, session, 'GET', csvPath(form)), 403, 'AccessDeniedException');
    }
    await expectBackendError(await call(server, null, 'GET', listPath(form)), 401);
    await expectBackendError(await call(server, null, 'GET', csvPath(form)), 401);
    await expectBackendError(await call(server, owner, 'GET', api('/forms/no-such-form/submissions')), 404, FORM_ERRORS.notFound);
    await expectBackendError(await call(server, owner, 'GET', api('/forms/no-such-form/submissions/csv')), 404, FORM_ERRORS.notFound);
    for (const query of ['?pageSize=0', '?page=0', '?pageSize=201', '?page=x', '?sort=name']) {
      await expectBackendError(await call(server, owner, 'GET', listPath(form, query)), 400, 'ValidationException');
    }
  });
});
