import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { FormHistory } from '@shared/contract/form-admin';
import { FORM_ERRORS, type Form, type FormInput, type FormList } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// Form administration against the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
// the History tab, who may edit a form (creator, editors, administrators), templates, allowed
// submitters, subject templates and the confirmation mail.

let server: TestServer;
let admin: Session;
let owner: Session; // ROLE_SECUFORMS, creates the forms
let colleague: Session; // ROLE_SECUFORMS, not an editor until added
let plain: Session; // no forms role

const api = (path: string) => `/api/2${path}`;
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
  server = await startTestServer({ config: { licenceActiveForms: 5 } });
  admin = await signInAdmin(server);
  const formsRoles = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] as const;
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', roleNames: [...formsRoles], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'colleague@example.test', roleNames: [...formsRoles], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  colleague = await signIn(server, 'colleague@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
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
});
