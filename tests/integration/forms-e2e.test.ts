import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createApiClient } from '@shared/api/client';
import { deliveryContentUrl, getDelivery } from '@shared/api/endpoints/delivery-read';
import { getPublicForm } from '@shared/api/endpoints/forms';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_E2E_ERRORS, FORM_VALUES_FILE_NAME, FormValuesDocumentSchema } from '@shared/contract/form-e2e';
import type { Form, FormInput, PublicForm } from '@shared/contract/forms';
import { utf8Decode } from '@shared/crypto/bytes';
import { createCryptoService } from '@shared/crypto/service';
import { downloadE2eFile, openE2eDelivery, submitFormDelivery } from '@shared/transfer';
import { filesUnder } from '@tests/support/files';
import { addressedTo, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

// Web forms at levels 3 and 4 (issue 16 §2) against the real server (SQLite, or PostgreSQL with
// KUVERT_TEST_DATABASE_URL): the save rule, the public page's keys and "passphrase not set" state,
// and an anonymous submission encrypted by the product's CryptoService and transfer engine — the
// server holds no plaintext of the files or the values; the recipient decrypts both.

let server: TestServer;
let admin: Session;
let formsAdmin: Session;
let alice: E2eActor; // mandatory recipient with SecuPass
let bob: E2eActor; // optional recipient with SecuPass
const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const FILE_MARKER = 'FORM-E2E-FILE-MARKER-7d1a';
const VALUE_MARKER = 'FORM-E2E-VALUE-MARKER-3c9e';
let counter = 0;

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Encrypted intake ${n}`,
    url: `encrypted-intake-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_3,
    mandatoryRecipients: ['alice@example.test'],
    optionalRecipients: ['bob@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Documents', type: 'file', maxFileSizeKb: 1000, allowedFileTypes: '.bin' },
    ],
    ...overrides,
  };
}

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const response = await call(server, formsAdmin, 'POST', api('/forms'), formInput(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

const publicClient = () => createApiClient({ backendUrl: server.url });

/** What the public page does: the shared submit flow with a fresh "browser" (its own CryptoService). */
async function submitAnonymously(form: PublicForm, values: Record<string, unknown>, files: Array<{ name: string; bytes: Uint8Array }>, chosenRecipients: string[] = []) {
  return submitFormDelivery({
    client: publicClient(),
    backendUrl: server.url,
    formId: form.formUuid,
    form,
    body: { values: values as never, chosenRecipients },
    files: files.map((f) => ({ name: f.name, blob: new Blob([f.bytes as Uint8Array<ArrayBuffer>]) })),
    crypto: createCryptoService(),
  });
}

async function openAs(actor: E2eActor, deliveryUuid: string) {
  const opened = await openE2eDelivery({ client: actor.client, deliveryUuid, e2e: e2eOf(actor) });
  const contents = new Map<string, Uint8Array>();
  for (const file of opened.files) {
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: actor.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, server.url), fetch: actor.fetch });
    contents.set(file.name, new Uint8Array(await blob.arrayBuffer()));
  }
  return { opened, contents };
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'forms@example.test', firstName: 'Fiona', lastName: 'Forms', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  for (const email of ['alice@example.test', 'bob@example.test', 'carol@example.test']) await createUserAsAdmin(server, admin, { email, roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'], licensed: true });
  formsAdmin = await signIn(server, 'forms@example.test', 'Good-Passw0rd');
  alice = await e2eActor(server, await signIn(server, 'alice@example.test', 'Good-Passw0rd'));
  bob = await e2eActor(server, await signIn(server, 'bob@example.test', 'Good-Passw0rd'));
}, 60_000);
afterAll(() => server?.close());

describe('web forms at levels 3 and 4', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('a level 3/4 form is saved only when every recipient has E2E activated (§8 naming them)', async () => {
    const before = await server.app.db.selectFrom('forms').select('id').execute();
    const refused = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ optionalRecipients: ['bob@example.test', 'nobody@outside.test'] })), 409, FORM_E2E_ERRORS.recipientWithoutPassphrase);
    expect(refused.metadata).toMatchObject({ field: 'securityLevel', recipients: ['alice@example.test', 'bob@example.test', 'nobody@outside.test'] });
    await giveSecuPass(alice, 'Alice-Forms-SecuPass-Birch-41');
    const partly = await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), formInput({ securityLevel: SECURITY_LEVELS.LEVEL_4 })), 409, FORM_E2E_ERRORS.recipientWithoutPassphrase);
    expect(partly.metadata.recipients).toEqual(['bob@example.test']);
    expect(await server.app.db.selectFrom('forms').select('id').execute()).toHaveLength(before.length);
    // A level 1 form may keep recipients without E2E; raising it to level 3 is refused the same way.
    const low = await createForm({ securityLevel: SECURITY_LEVELS.LEVEL_1 });
    await expectBackendError(await call(server, formsAdmin, 'PUT', api(`/forms/${low.formUuid}`), formInput({ name: low.name, url: low.url })), 409, FORM_E2E_ERRORS.recipientWithoutPassphrase);
    await giveSecuPass(bob, 'Bob-Forms-SecuPass-Cedar-52');
    const saved = await createForm();
    expect(saved.securityLevel).toBe(SECURITY_LEVELS.LEVEL_3);
  }, 120_000);

  it('the public page of a level 3 form answers every recipient\'s keys; values in clear are refused', async () => {
    const form = await createForm();
    const page = await getPublicForm(publicClient(), form.url);
    expect(page.securityLevel).toBe(SECURITY_LEVELS.LEVEL_3);
    expect(page.e2eRecipients.map((r) => r.userUuid).sort()).toEqual([alice.userUuid, bob.userUuid].sort());
    const aliceKey = page.e2eRecipients.find((r) => r.userUuid === alice.userUuid)!.keys.find((k) => k.usage === 'encryption')!;
    expect(aliceKey.keyId).toBe(alice.keys!.encryption.keyId);
    const level1 = await getPublicForm(publicClient(), (await createForm({ securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['carol@example.test'], optionalRecipients: [] })).url);
    expect(level1.e2eRecipients).toEqual([]);
    const deliveriesBefore = await server.app.db.selectFrom('deliveries').select('id').execute();
    const plain = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}/submissions`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values: { 'Full name': 'In clear' } }) });
    const error = await expectBackendError(plain, 400, 'ValidationException');
    expect(error.metadata.problems).toEqual([{ field: 'values', reason: 'encryptedValuesOnly' }]);
    expect(await server.app.db.selectFrom('deliveries').select('id').execute()).toHaveLength(deliveriesBefore.length);
  });

  it('level 3: files and values leave the browser encrypted; no plaintext at rest; each recipient decrypts both', async () => {
    const form = await createForm();
    const page = await getPublicForm(publicClient(), form.formUuid);
    const bytes = randomBytes(5000);
    bytes.set(Buffer.from(FILE_MARKER), 100);
    const values = { 'Full name': `Paula ${VALUE_MARKER}`, Documents: [{ name: 'scan.bin', size: bytes.length, type: '' }] };
    const { started, result } = await submitAnonymously(page, values, [{ name: 'scan.bin', bytes }], ['bob@example.test']);
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    expect(started.submitterUserUuid).not.toBeNull();

    for (const actor of [alice, bob]) {
      const { opened, contents } = await openAs(actor, started.deliveryUuid);
      expect(sha256(contents.get('scan.bin')!)).toBe(sha256(bytes));
      const document = FormValuesDocumentSchema.parse(JSON.parse(utf8Decode(contents.get(FORM_VALUES_FILE_NAME)!)));
      expect(document).toMatchObject({ formUuid: form.formUuid, formName: form.name, values, chosenRecipients: ['bob@example.test'] });
      // The signer is the submission's own submitter account, named after the form.
      expect(opened.signer.email).toMatch(/^forms\+form-[0-9a-f]{12}@example\.test$/);
      await opened.close();
      // The delivery's detail names the form (issue 33 §2): the reader shows it as the sender.
      expect((await getDelivery(actor.client, started.deliveryUuid)).fromForm).toEqual({ name: form.name });
    }
    const row = await server.app.db.selectFrom('deliveries').select(['subject', 'body', 'status']).where('uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ subject: `Form "${form.name}": new submission`, body: 'The values are in the encrypted file form-values.json.', status: 'sent' });
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && m.subject.includes(form.name));

    // No plaintext marker anywhere: the blob folder, every row of every table, every mail.
    const needles = [FILE_MARKER, VALUE_MARKER];
    const hits: string[] = [];
    for (const path of await filesUnder(server.dataDir)) {
      const content = await readFile(path);
      for (const needle of needles) if (content.includes(Buffer.from(needle))) hits.push(`${path}: ${needle}`);
    }
    const tables = await server.app.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['forms', 'form_submissions', 'deliveries', 'delivery_files']));
    for (const table of tables) {
      const text = JSON.stringify(await server.app.db.selectFrom(table.name as never).selectAll().execute());
      for (const needle of needles) if (text.includes(needle)) hits.push(`table ${table.name}: ${needle}`);
    }
    for (const mail of await readMailbox(server.mailboxDir)) {
      for (const needle of needles) if (`${mail.subject}\n${mail.text}\n${mail.html}`.includes(needle)) hits.push(`mail ${mail.id}: ${needle}`);
    }
    expect(hits).toEqual([]);
  }, 120_000);

  it('level 4: the values are also the encrypted message; subject and body are empty on the server; a text template is filled in the browser before sealing', async () => {
    const fields = formInput().customFields ?? [];
    const form = await createForm({ securityLevel: SECURITY_LEVELS.LEVEL_4, customFields: [...fields, { name: 'Summary', type: 'textTemplate', defaultValue: 'Claim of {field:Full name}' }] });
    const page = await getPublicForm(publicClient(), form.formUuid);
    const { started, result } = await submitAnonymously(page, { 'Full name': 'Level Four' }, []);
    expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
    const row = await server.app.db.selectFrom('deliveries').select(['subject', 'body']).where('uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ subject: '', body: '' });
    const { opened, contents } = await openAs(alice, started.deliveryUuid);
    expect(opened.message).toEqual({ subject: form.name, body: 'Full name: Level Four\nClaim of Level Four' });
    const document = FormValuesDocumentSchema.parse(JSON.parse(utf8Decode(contents.get(FORM_VALUES_FILE_NAME)!)));
    expect(document.values).toEqual({ 'Full name': 'Level Four' });
    expect(document.texts).toEqual({ Summary: 'Claim of Level Four' });
    await opened.close();
  }, 120_000);

  it('two submissions at once: each its own submitter account and keys', async () => {
    const form = await createForm();
    const page = await getPublicForm(publicClient(), form.formUuid);
    const [a, b] = await Promise.all([submitAnonymously(page, { 'Full name': 'A' }, []), submitAnonymously(page, { 'Full name': 'B' }, [])]);
    expect(a.result.ok && b.result.ok).toBe(true);
    expect(a.started.submitterUserUuid).not.toBe(b.started.submitterUserUuid);
    for (const { started } of [a, b]) {
      const { opened } = await openAs(alice, started.deliveryUuid);
      await opened.close();
    }
  }, 120_000);

  it('a recipient who lost E2E after the save: the page state "passphrase not set", nothing submitted', async () => {
    const withCarol = formInput({ optionalRecipients: [], mandatoryRecipients: ['carol@example.test', 'alice@example.test'] });
    await expectBackendError(await call(server, formsAdmin, 'POST', api('/forms'), withCarol), 409, FORM_E2E_ERRORS.recipientWithoutPassphrase);
    const carol = await e2eActor(server, await signIn(server, 'carol@example.test', 'Good-Passw0rd'));
    await giveSecuPass(carol, 'Carol-Forms-SecuPass-Maple-63');
    const saved = await createForm({ optionalRecipients: [], mandatoryRecipients: ['carol@example.test'] });
    const reset = await call(server, admin, 'POST', api(`/admin/users/${carol.userUuid}/secupass/reset`), {});
    expect(reset.status, await reset.clone().text()).toBe(204);
    await expectBackendError(await fetch(`${server.url}${api(`/public-forms/${saved.url}`)}`), 409, FORM_E2E_ERRORS.passphraseNotSet);
    const deliveriesBefore = await server.app.db.selectFrom('deliveries').select('id').execute();
    await expectBackendError(await fetch(`${server.url}${api(`/public-forms/${saved.url}/submissions`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values: {} }) }), 409, FORM_E2E_ERRORS.passphraseNotSet);
    expect(await server.app.db.selectFrom('deliveries').select('id').execute()).toHaveLength(deliveriesBefore.length);
  }, 120_000);
});
