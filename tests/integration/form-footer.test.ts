import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_FOOTER_URL_MAX } from '@shared/contract/form-footer';
import { type Form, type FormInput, type PublicForm } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// The form footer (shared/contract/form-footer.ts) against the real server (SQLite, or PostgreSQL
// with KUVERT_TEST_DATABASE_URL): saved and read with the layout, on the public page, the §5
// "footer links valid" rule with its §8 answer, and forms saved before the footer existed.

let server: TestServer;
let owner: Session;
const api = (path: string) => `/api/2${path}`;
let counter = 0;

const FOOTER = { enabled: true, imprintUrl: 'https://example.test/imprint', privacyUrl: 'http://example.test/privacy', supportUrl: '' };

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return { name: `Footed ${n}`, url: `footed-${n}`, active: true, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['recipient@example.test'], customFields: [{ name: 'Note', type: 'text', textAreaSize: 1 }], ...overrides };
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

describe('form footer', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('saves and reads the footer with the layout; the public page gets it; a form without one has it off and empty', async () => {
    const created = await call(server, owner, 'POST', api('/forms'), formInput({ layout: { footer: FOOTER } }));
    expect(created.status, await created.clone().text()).toBe(201);
    const form = (await created.json()) as Form;
    expect(form.layout.footer).toEqual(FOOTER);
    const read = (await (await call(server, owner, 'GET', api(`/forms/${form.formUuid}`))).json()) as Form;
    expect(read.layout.footer).toEqual(FOOTER);
    const publicForm = (await (await fetch(`${server.url}${api(`/public-forms/${form.url}`)}`)).json()) as PublicForm;
    expect(publicForm.layout.footer).toEqual(FOOTER);

    const { formUuid: _u, createdBy: _c, createdAt: _a, updatedAt: _t, link: _l, ...input } = form;
    const off = await call(server, owner, 'PUT', api(`/forms/${form.formUuid}`), { ...input, layout: { ...form.layout, footer: { ...FOOTER, enabled: false, supportUrl: 'https://example.test/help' } } });
    expect(off.status, await off.clone().text()).toBe(200);
    expect(((await off.json()) as Form).layout.footer).toEqual({ ...FOOTER, enabled: false, supportUrl: 'https://example.test/help' });

    const plain = (await (await call(server, owner, 'POST', api('/forms'), formInput())).json()) as Form;
    expect(plain.layout.footer).toEqual({ enabled: false, imprintUrl: '', privacyUrl: '', supportUrl: '' });
    // A layout stored before the footer existed reads as no footer.
    await server.app.db.updateTable('forms').set({ layout: JSON.stringify({ description: 'Old', successTitle: '', successMessage: '', redirectUrl: '' }) }).where('uuid', '=', plain.formUuid).execute();
    const old = (await (await call(server, owner, 'GET', api(`/forms/${plain.formUuid}`))).json()) as Form;
    expect(old.layout).toMatchObject({ description: 'Old', footer: { enabled: false, imprintUrl: '', privacyUrl: '', supportUrl: '' } });
  });

  it('§5 footer links valid: javascript:, data:, relative or malformed links → 400 naming each link; too long → 400; nothing stored', async () => {
    const before = await server.app.db.selectFrom('forms').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    expect(await refused(formInput({ layout: { footer: { ...FOOTER, imprintUrl: 'javascript:alert(1)' } } }))).toEqual([{ field: 'layout.footer.imprintUrl', reason: 'invalidFooterLink' }]);
    // Checked while disabled too: a stored link is always safe to show later.
    expect(await refused(formInput({ layout: { footer: { enabled: false, privacyUrl: 'data:text/html,x', supportUrl: '/help' } } }))).toEqual([
      { field: 'layout.footer.privacyUrl', reason: 'invalidFooterLink' },
      { field: 'layout.footer.supportUrl', reason: 'invalidFooterLink' },
    ]);
    await expectBackendError(await call(server, owner, 'POST', api('/forms'), formInput({ layout: { footer: { ...FOOTER, supportUrl: `https://example.test/${'a'.repeat(FORM_FOOTER_URL_MAX)}` } } })), 400, 'ValidationException');
    await expectBackendError(await call(server, owner, 'POST', api('/forms'), { ...formInput(), layout: { footer: { ...FOOTER, homepage: 'https://example.test' } } }), 400, 'ValidationException');
    const after = await server.app.db.selectFrom('forms').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
