import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_BACKGROUND_MAX_BYTES, type FormBackgroundInfo } from '@shared/contract/form-layout';
import type { Form, FormInput, PublicForm } from '@shared/contract/forms';
import { makePng } from '@tests/support/png';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// Form layout images against the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
// the background image's upload (type from the bytes, size and dimension limits), who may change
// it, the public image with its headers, replace and remove; the company logo switch.

let server: TestServer;
let admin: Session;
let owner: Session; // ROLE_SECUFORMS, creates the forms
let colleague: Session; // ROLE_SECUFORMS, not an editor
let plain: Session; // no forms role
const api = (path: string) => `/api/2${path}`;
let counter = 0;

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const n = ++counter;
  const input: FormInput = { name: `Layout ${n}`, url: `layout-${n}`, active: true, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['recipient@example.test'], ...overrides };
  const response = await call(server, owner, 'POST', api('/forms'), input);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

function upload(session: Session | null, formUuid: string, bytes: Uint8Array | string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (session) {
    headers.cookie = session.cookie;
    headers[ANTI_CSRF_HEADER] = session.csrf;
  }
  return fetch(`${server.url}${api(`/forms/${formUuid}/background-image`)}`, { method: 'PUT', headers, body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes) });
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const publicPage = async (formId: string) => json<PublicForm>(await fetch(`${server.url}${api(`/public-forms/${formId}`)}`), 200);

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: 50 } });
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

describe('form background image', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('upload: stored in the blob store, served publicly with its type, cache headers and nosniff; replace; remove → 404', async () => {
    const form = await createForm();
    expect(await json<FormBackgroundInfo>(await call(server, owner, 'GET', api(`/forms/${form.formUuid}/background-image/info`)), 200)).toEqual({ backgroundImage: null });
    expect((await publicPage(form.formUuid)).backgroundImageUrl).toBeNull();

    const png = makePng(40, 30);
    const stored = await json<FormBackgroundInfo>(await upload(owner, form.formUuid, png), 200);
    expect(stored.backgroundImage).toMatchObject({ contentType: 'image/png', size: png.length, width: 40, height: 30 });
    const url = stored.backgroundImage!.url;
    expect(url).toMatch(new RegExp(`^/api/2/public-forms/${form.formUuid}/background-image\\?v=[0-9a-f]{16}$`));
    const row = await server.app.db.selectFrom('form_layout_images').selectAll().executeTakeFirstOrThrow();
    expect(await server.app.blobs.exists(row.blob_key)).toBe(true);

    // Anonymous: the public page names the URL (by id and by slug), the image answers with its bytes.
    expect((await publicPage(form.formUuid)).backgroundImageUrl).toBe(url);
    expect((await publicPage(form.url)).backgroundImageUrl).toBe(url);
    const image = await fetch(`${server.url}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    const unversioned = await fetch(`${server.url}${api(`/public-forms/${form.url}/background-image`)}`);
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = unversioned.headers.get('etag')!;
    expect((await fetch(`${server.url}${url}`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // Replace: a new URL and new bytes; the old bytes leave the blob store.
    const replacement = makePng(20, 10, [200, 30, 30]);
    const replaced = await json<FormBackgroundInfo>(await upload(owner, form.formUuid, replacement), 200);
    expect(replaced.backgroundImage).toMatchObject({ width: 20, height: 10, size: replacement.length });
    expect(replaced.backgroundImage!.url).not.toBe(url);
    expect(await server.app.blobs.exists(row.blob_key)).toBe(false);
    expect(Buffer.from(await (await fetch(`${server.url}${replaced.backgroundImage!.url}`)).arrayBuffer()).equals(replacement)).toBe(true);
    expect(await json<FormBackgroundInfo>(await call(server, owner, 'GET', api(`/forms/${form.formUuid}/background-image/info`)), 200)).toEqual(replaced);

    // Remove: the public image is gone (404 in the §8 shape), the page names none.
    const newRow = await server.app.db.selectFrom('form_layout_images').selectAll().where('form_id', '=', row.form_id).executeTakeFirstOrThrow();
    expect(await json<FormBackgroundInfo>(await call(server, owner, 'DELETE', api(`/forms/${form.formUuid}/background-image`)), 200)).toEqual({ backgroundImage: null });
    await expectBackendError(await fetch(`${server.url}${replaced.backgroundImage!.url}`), 404, 'NotFoundException');
    expect((await publicPage(form.formUuid)).backgroundImageUrl).toBeNull();
    expect(await server.app.blobs.exists(newRow.blob_key)).toBe(false);
  });

  it('refuses what is no PNG, JPEG or WebP (by the bytes, not the name), too large files and absurd dimensions', async () => {
    const form = await createForm();
    const text = await expectBackendError(await upload(owner, form.formUuid, 'Hello, I am a text file saved as picture.png'), 400, 'ValidationException');
    expect(text.metadata).toMatchObject({ reason: 'notAnImage' });
    expect(text.message).toBe('The background image must be a PNG, JPEG or WebP image');
    const gif = await expectBackendError(await upload(owner, form.formUuid, Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')), 400, 'ValidationException');
    expect(gif.metadata).toMatchObject({ reason: 'notAnImage' });
    await expectBackendError(await upload(owner, form.formUuid, new Uint8Array()), 400, 'ValidationException');

    // Over 2 MiB: 413 with the limit; a real PNG padded past it counts the same.
    const big = Buffer.concat([makePng(10, 10), Buffer.alloc(FORM_BACKGROUND_MAX_BYTES)]);
    const tooLarge = await expectBackendError(await upload(owner, form.formUuid, big), 413, 'PayloadTooLargeException');
    expect(tooLarge.metadata).toMatchObject({ maxBytes: FORM_BACKGROUND_MAX_BYTES });
    // A header claiming 9000 × 10 pixels.
    const wide = makePng(1, 1);
    wide.writeUInt32BE(9000, 16);
    expect((await expectBackendError(await upload(owner, form.formUuid, wide), 400, 'ValidationException')).metadata).toMatchObject({ reason: 'badDimensions', width: 9000 });

    // Nothing was stored by any of them.
    expect(await json<FormBackgroundInfo>(await call(server, owner, 'GET', api(`/forms/${form.formUuid}/background-image/info`)), 200)).toEqual({ backgroundImage: null });
  });

  it('only the form\'s creator, editors and administrators change it; anonymous 401; unknown form 404', async () => {
    const form = await createForm();
    const png = makePng(4, 4);
    await expectBackendError(await upload(colleague, form.formUuid, png), 403, 'AccessDeniedException');
    await expectBackendError(await upload(plain, form.formUuid, png), 403, 'AccessDeniedException');
    await expectBackendError(await upload(null, form.formUuid, png), 401);
    await expectBackendError(await call(server, colleague, 'DELETE', api(`/forms/${form.formUuid}/background-image`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, colleague, 'GET', api(`/forms/${form.formUuid}/background-image/info`)), 403, 'AccessDeniedException');
    await expectBackendError(await upload(owner, 'no-such-form', png), 404, 'FormNotFoundException');
    await expectBackendError(await fetch(`${server.url}${api('/public-forms/no-such-form/background-image')}`), 404, 'FormNotFoundException');
    // An administrator may; an editor added in the Users tab may.
    expect((await upload(admin, form.formUuid, png)).status).toBe(200);
    const { formUuid: _u, createdBy: _c, createdAt: _a, updatedAt: _t, link: _l, ...input } = form;
    expect((await call(server, owner, 'PUT', api(`/forms/${form.formUuid}`), { ...input, admin: { ...input.admin, editors: ['colleague@example.test'] } })).status).toBe(200);
    expect((await upload(colleague, form.formUuid, png)).status).toBe(200);
    // Deleting the form removes the image's bytes too.
    const row = await server.app.db.selectFrom('form_layout_images').innerJoin('forms', 'forms.id', 'form_layout_images.form_id').select('blob_key').where('forms.uuid', '=', form.formUuid).executeTakeFirstOrThrow();
    expect((await call(server, owner, 'DELETE', api(`/forms/${form.formUuid}`))).status).toBe(204);
    expect(await server.app.blobs.exists(row.blob_key)).toBe(false);
  });

  it('company logo switch: the public page names the theme logo (the product\'s until one is uploaded)', async () => {
    const off = await createForm();
    expect((await publicPage(off.formUuid)).logoUrl).toBeNull();
    const on = await createForm({ admin: { appearance: { showCompanyLogo: true } } });
    const productLogo = (await publicPage(on.formUuid)).logoUrl!;
    expect(productLogo).toBe('/webui/logo?v=default');
    expect((await fetch(`${server.url}${productLogo}`)).status).toBe(200);
    const headers = { 'content-type': 'application/octet-stream', cookie: admin.cookie, [ANTI_CSRF_HEADER]: admin.csrf };
    expect((await fetch(`${server.url}${api('/admin/theme/logo')}`, { method: 'PUT', headers, body: new Uint8Array(makePng(16, 16)) })).status).toBe(200);
    const companyLogo = (await publicPage(on.formUuid)).logoUrl!;
    expect(companyLogo).toMatch(/^\/webui\/logo\?v=[0-9a-f]{16}$/);
    const logo = await fetch(`${server.url}${companyLogo}`);
    expect(logo.headers.get('content-type')).toBe('image/png');
  });
});
