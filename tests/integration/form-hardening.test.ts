// Public form submissions, hardened (issue 16 §2 "bad input"), against the real server (SQLite,
// or PostgreSQL with KUVERT_TEST_DATABASE_URL): the rate limit per client address and per form
// (thousands of submits from one address → 429 in the §8 shape, exactly the allowed ones stored),
// a value failing its regex, oversized and forbidden files — declared, at file create and at
// commit — each with its §8 answer and nothing half-stored (no draft, no bytes, no mail).
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_ERRORS, FORM_SIGNATURE_MAX, type Form, type FormInput, type FormSubmitResponse } from '@shared/contract/forms';
import { signatureFile } from '@shared/rules/form-rules';
import type { DeliveryUploadFile } from '@shared/contract/deliveries';
import { FORM_SUBMIT_LIMIT_PER_FORM, FORM_SUBMIT_LIMIT_PER_IP } from '@server/forms/hardening';
import { partKey } from '@server/deliveries/records';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, expectBackendError, forgetFailures, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

const api = (path: string) => `/api/2${path}`;
let server: TestServer;
let admin: Session;
let counter = 0;

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Hardened ${n}`,
    url: `hardened-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['admin@example.test'],
    customFields: [
      { name: 'Name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Reference', type: 'text', regex: 'REF-[0-9]{4}', textAreaSize: 1 },
      { name: 'Scan', type: 'file', maxFileSizeKb: 10, allowedFileTypes: 'application/pdf' },
    ],
    ...overrides,
  };
}

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const response = await call(server, admin, 'POST', api('/forms'), formInput(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

/** One submission through app.inject from a given client address (no socket per call). */
async function injectSubmit(form: Form, ip: string, values: Record<string, unknown> = { Name: 'Paula' }) {
  const response = await server.app.inject({ method: 'POST', url: api(`/public-forms/${form.formUuid}/submissions`), remoteAddress: ip, payload: { values } });
  return { status: response.statusCode, body: response.json<{ error?: string; metadata?: Record<string, unknown> }>(), retryAfter: response.headers['retry-after'] };
}

const submissionsOf = async (form: Form) =>
  Number((await server.app.db.selectFrom('form_submissions as s').innerJoin('forms as f', 'f.id', 's.form_id').select((eb) => eb.fn.countAll<number | string>().as('n')).where('f.uuid', '=', form.formUuid).executeTakeFirstOrThrow()).n);

async function submit(form: Form, values: Record<string, unknown>): Promise<FormSubmitResponse> {
  const response = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}/submissions`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values }) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as FormSubmitResponse;
}

const bearer = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
const addFile = (started: FormSubmitResponse, file: { name: string; size: number; mimeType: string }) =>
  fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files`)}`, { method: 'POST', headers: bearer(started.sessionToken, { 'content-type': 'application/json' }), body: JSON.stringify(file) });

/** The delivery is gone for everyone: deleted, its session ended, no bytes under its prefix. */
async function expectCancelled(started: FormSubmitResponse) {
  const row = await server.app.db.selectFrom('deliveries').select('status').where('uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
  expect(row.status).toBe('deleted');
  const again = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/send`)}`, { method: 'POST', headers: bearer(started.sessionToken) });
  expect(again.status).toBe(401);
  const blobs = await readdir(join(server.dataDir, 'blobs', 'deliveries', started.deliveryUuid)).catch(() => []);
  expect(blobs).toEqual([]);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterAll(() => server?.close());
beforeEach(() => forgetFailures(server));

describe('public form submissions, hardened', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it(`many submits from one address: ${FORM_SUBMIT_LIMIT_PER_IP} pass, the rest 429 in the §8 shape, nothing more stored`, async () => {
    const form = await createForm();
    const ATTEMPTS = 1000;
    const statuses = new Map<number, number>();
    let refused: Awaited<ReturnType<typeof injectSubmit>> | undefined;
    for (let i = 0; i < ATTEMPTS; i++) {
      const result = await injectSubmit(form, '203.0.113.7');
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      if (result.status === 429) refused ??= result;
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: FORM_SUBMIT_LIMIT_PER_IP, 429: ATTEMPTS - FORM_SUBMIT_LIMIT_PER_IP });
    expect(refused!.body.error).toBe('RateLimitExceededException');
    expect(Number(refused!.retryAfter)).toBeGreaterThan(0);
    expect(refused!.body.metadata?.retryAfterSeconds).toBeGreaterThan(0);
    expect(await submissionsOf(form)).toBe(FORM_SUBMIT_LIMIT_PER_IP);
    // Another address is not held up by the first one.
    expect((await injectSubmit(form, '198.51.100.1')).status).toBe(201);
  });

  it(`one form takes ${FORM_SUBMIT_LIMIT_PER_FORM} submissions per window from everyone together`, async () => {
    const form = await createForm();
    const other = await createForm();
    for (let i = 0; i < FORM_SUBMIT_LIMIT_PER_FORM; i++) {
      const result = await injectSubmit(form, `10.1.${Math.floor(i / 10)}.${i % 10}`);
      expect(result.status, JSON.stringify(result.body)).toBe(201);
    }
    const refused = await injectSubmit(form, '10.9.9.9');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RateLimitExceededException');
    expect(await submissionsOf(form)).toBe(FORM_SUBMIT_LIMIT_PER_FORM);
    // Other forms keep taking submissions.
    expect((await injectSubmit(other, '10.9.9.9')).status).toBe(201);
  });

  it('a value failing its regex, and oversized or forbidden declared files: 400 with the field and reason, nothing stored', async () => {
    const form = await createForm();
    const drafts = async () => (await server.app.db.selectFrom('deliveries').select('id').execute()).length;
    const before = await drafts();
    for (const [values, field, reason] of [
      [{ Name: 'Paula', Reference: 'ref-12' }, 'Reference', 'regexMismatch'],
      [{ Name: 'Paula', Scan: [{ name: 'big.pdf', size: 10 * 1024 + 1, type: 'application/pdf' }] }, 'Scan', 'fileTooLarge'],
      [{ Name: 'Paula', Scan: [{ name: 'tool.exe', size: 100, type: 'application/x-msdownload' }] }, 'Scan', 'fileTypeNotAllowed'],
    ] as const) {
      const result = await injectSubmit(form, '192.0.2.10', values);
      expect(result.status).toBe(400);
      expect(result.body.error).toBe(FORM_ERRORS.fieldInvalid);
      expect(result.body.metadata?.problems).toEqual([{ field, reason }]);
    }
    expect(await submissionsOf(form)).toBe(0);
    expect(await drafts()).toBe(before);
  });

  it('file create: a file other than declared, or of a forbidden type, cancels the submission', async () => {
    const form = await createForm();
    const declared = { Name: 'Paula', Scan: [{ name: 'scan.pdf', size: 3000, type: 'application/pdf' }] };
    for (const [file, field, reason] of [
      [{ name: 'scan.pdf', size: 900_000, mimeType: 'application/pdf' }, 'scan.pdf', 'undeclaredFile'],
      [{ name: 'other.pdf', size: 3000, mimeType: 'application/pdf' }, 'other.pdf', 'undeclaredFile'],
      [{ name: 'scan.pdf', size: 3000, mimeType: 'application/x-msdownload' }, 'Scan', 'fileTypeNotAllowed'],
    ] as const) {
      const started = await submit(form, declared);
      const body = await expectBackendError(await addFile(started, file), 400, FORM_ERRORS.fieldInvalid);
      expect(body.metadata.problems).toEqual([{ field, reason }]);
      expect(await server.app.db.selectFrom('delivery_files as f').innerJoin('deliveries as d', 'd.id', 'f.delivery_id').select('f.id').where('d.uuid', '=', started.deliveryUuid).execute()).toEqual([]);
      await expectCancelled(started);
    }
  });

  it('commit: the field limit checked again (lowered meanwhile) → refused, the bytes and the draft are gone, nobody is mailed', async () => {
    const form = await createForm();
    const started = await submit(form, { Name: 'Paula', Scan: [{ name: 'scan.pdf', size: 3000, type: 'application/pdf' }] });
    const created = await addFile(started, { name: 'scan.pdf', size: 3000, mimeType: 'application/pdf' });
    expect(created.status, await created.clone().text()).toBe(201);
    const file = (await created.json()) as DeliveryUploadFile;
    const bytes = testFileBytes(3000);
    const part = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files/${file.fileId}/parts/0`)}`, {
      method: 'PUT',
      headers: bearer(started.sessionToken, { 'content-type': 'application/octet-stream', 'x-content-sha256': createHash('sha256').update(bytes).digest('hex') }),
      body: bytes,
    });
    expect(part.status, await part.clone().text()).toBe(200);
    expect(await server.app.blobs.exists(partKey(started.deliveryUuid, file.fileId, 0))).toBe(true);

    // The administrator lowers the field's limit to 2 kB before the upload is committed.
    const lowered = formInput({ name: form.name, url: form.url, customFields: [{ name: 'Name', type: 'text', required: true, textAreaSize: 1 }, { name: 'Scan', type: 'file', maxFileSizeKb: 2, allowedFileTypes: 'application/pdf' }] });
    expect((await call(server, admin, 'PUT', api(`/forms/${form.formUuid}`), lowered)).status).toBe(200);

    const commit = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files/${file.fileId}/commit`)}`, { method: 'POST', headers: bearer(started.sessionToken) });
    const body = await expectBackendError(commit, 400, FORM_ERRORS.fieldInvalid);
    expect(body.metadata.problems).toEqual([{ field: 'Scan', reason: 'fileTooLarge' }]);
    expect(await server.app.blobs.exists(partKey(started.deliveryUuid, file.fileId, 0))).toBe(false);
    await expectCancelled(started);
    // No send happened: the recipient has nothing in the inbox.
    const inbox = (await (await call(server, admin, 'GET', api('/deliveries/inbox'))).json()) as { items: Array<{ deliveryUuid: string }> };
    expect(inbox.items.map((i) => i.deliveryUuid)).not.toContain(started.deliveryUuid);
  });

  it('a submission that keeps to its declaration uploads and sends as before', async () => {
    const form = await createForm();
    const started = await submit(form, { Name: 'Paula', Scan: [{ name: 'scan.pdf', size: 3000, type: 'application/pdf' }] });
    const created = await addFile(started, { name: 'scan.pdf', size: 3000, mimeType: 'application/pdf' });
    expect(created.status, await created.clone().text()).toBe(201);
    const file = (await created.json()) as DeliveryUploadFile;
    const bytes = testFileBytes(3000);
    const part = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files/${file.fileId}/parts/0`)}`, {
      method: 'PUT',
      headers: bearer(started.sessionToken, { 'content-type': 'application/octet-stream', 'x-content-sha256': createHash('sha256').update(bytes).digest('hex') }),
      body: bytes,
    });
    expect(part.status).toBe(200);
    const commit = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/files/${file.fileId}/commit`)}`, { method: 'POST', headers: bearer(started.sessionToken) });
    expect(commit.status, await commit.clone().text()).toBe(200);
    const send = await fetch(`${server.url}${api(`/deliveries/${started.deliveryUuid}/send`)}`, { method: 'POST', headers: bearer(started.sessionToken) });
    expect(send.status, await send.clone().text()).toBe(200);
  });

  it('signature: a PNG data URL within FORM_SIGNATURE_MAX only; it travels as its PNG file', async () => {
    const form = await createForm({ customFields: [{ name: 'Signed by', type: 'signature', required: true }] });
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    for (const value of [
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      `data:image/png;base64,${Buffer.from('GIF89a not a png at all').toString('base64')}`,
      'data:image/png;base64,iVBORw0KGgo!!!!',
      'a typed name without a drawing',
    ]) {
      const result = await injectSubmit(form, '192.0.2.20', { 'Signed by': value });
      expect(result.status).toBe(400);
      expect(result.body.metadata?.problems).toEqual([{ field: 'Signed by', reason: 'invalidValue' }]);
    }
    const huge = await injectSubmit(form, '192.0.2.20', { 'Signed by': `data:image/png;base64,iVBORw0KGgo${'A'.repeat(FORM_SIGNATURE_MAX)}` });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe('ValidationException');
    expect(await submissionsOf(form)).toBe(0);

    const started = await submit(form, { 'Signed by': dataUrl });
    const file = signatureFile('Signed by', dataUrl);
    expect(file).toEqual({ name: 'Signed by.png', size: png.length, type: 'image/png' });
    const created = await addFile(started, { name: file.name, size: file.size, mimeType: 'image/png' });
    expect(created.status, await created.clone().text()).toBe(201);
    // Anything else as the signature's file is refused (and cancels the submission).
    const other = await submit(form, { 'Signed by': dataUrl });
    const refused = await addFile(other, { name: file.name, size: file.size, mimeType: 'image/gif' });
    expect((await expectBackendError(refused, 400, FORM_ERRORS.fieldInvalid)).metadata.problems).toEqual([{ field: 'Signed by', reason: 'invalidValue' }]);
  });
});
