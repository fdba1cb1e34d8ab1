import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { getPublicForm } from '@shared/api/endpoints/forms';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_VALUES_FILE_NAME } from '@shared/contract/form-e2e';
import { FLOW_WEBHOOK_HEADERS, FlowWebhookBodySchema, SUBMISSION_JSON_FILE, SubmissionJsonSchema, type FlowList, type ProcessServiceSecret } from '@shared/contract/flows';
import type { Form, FormInput, PublicForm } from '@shared/contract/forms';
import { utf8Decode } from '@shared/crypto/bytes';
import { createCryptoService } from '@shared/crypto/service';
import { downloadE2eFile, openE2eDelivery, submitFormDelivery } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';

// Flows at levels 3/4 (issue 16 §3/§4) against the real server (SQLite, or PostgreSQL with
// KUVERT_TEST_DATABASE_URL): the submitter's browser (here the product's submit flow with its own
// CryptoService) builds submission.json with the shared builder and uploads it encrypted; the
// webhook is signed and carries no value; the recipient decrypts the JSON with real crypto.

const NO_POLL = 600_000;
const VALUE_MARKER = 'FLOW-E2E-VALUE-MARKER-51ab';

let server: TestServer;
let formsAdmin: Session;
let flowsUser: Session;
let alice: E2eActor; // the form's recipient, with SecuPass

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

const api = (path: string) => `/api/2${path}`;
let counter = 0;

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Sealed claim ${n}`,
    url: `sealed-claim-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_3,
    mandatoryRecipients: ['alice@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Topics', type: 'checkbox', options: ['Sales', 'Support', 'Billing'] },
      { name: 'Documents', type: 'file', maxFileSizeKb: 10, allowedFileTypes: '.bin' },
      { name: 'Terms', type: 'link', defaultValue: 'https://example.test/terms' },
      { name: 'Summary', type: 'textTemplate', defaultValue: '{field:Full name} about {field:Topics}' },
    ],
    ...overrides,
  };
}

async function createForm(overrides: Partial<FormInput> = {}): Promise<Form> {
  const response = await call(server, formsAdmin, 'POST', api('/forms'), formInput(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

async function withProcessService(form: Form): Promise<string> {
  const made = await call(server, formsAdmin, 'POST', api(`/forms/${form.formUuid}/process-service/secret`));
  expect(made.status).toBe(201);
  const { secret } = (await made.json()) as ProcessServiceSecret;
  const saved = await call(server, formsAdmin, 'PUT', api(`/forms/${form.formUuid}/process-service`), { enabled: true, webhookUrl: receiverUrl });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return secret;
}

const values = { 'Full name': `Paula ${VALUE_MARKER}`, Topics: ['Sales', 'Billing'], Documents: [{ name: 'scan.bin', size: 700, type: '' }] };
const scan = new Uint8Array(700).fill(9);

/** What the public page does: the shared submit flow with a fresh "browser" (its own CryptoService). */
async function submitAnonymously(page: PublicForm) {
  const outcome = await submitFormDelivery({
    client: createApiClient({ backendUrl: server.url }),
    backendUrl: server.url,
    formId: page.formUuid,
    form: page,
    body: { values, chosenRecipients: [], language: 'en' },
    files: [{ name: 'scan.bin', blob: new Blob([scan]) }],
    crypto: createCryptoService(),
  });
  expect(outcome.result.ok, JSON.stringify(!outcome.result.ok && outcome.result.error)).toBe(true);
  return outcome.started;
}

async function decryptedFiles(deliveryUuid: string): Promise<Map<string, Uint8Array>> {
  const opened = await openE2eDelivery({ client: alice.client, deliveryUuid, e2e: e2eOf(alice) });
  const contents = new Map<string, Uint8Array>();
  for (const file of opened.files) {
    const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: alice.crypto, url: deliveryContentUrl(deliveryUuid, file.fileId, null, server.url), fetch: alice.fetch });
    contents.set(file.name, new Uint8Array(await blob.arrayBuffer()));
  }
  await opened.close();
  return contents;
}

/** What a receiver does (docs/flows.md): the HMAC over "<t>.<raw body>", compared in constant time. */
function verifies(secret: string, request: Received): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers[FLOW_WEBHOOK_HEADERS.signature]));
  if (!match) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(`${match[1]}.${request.body}`).digest(), Buffer.from(match[2]!, 'hex'));
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The loopback receiver through the operator's allow-list (KUVERT_OUTBOUND_ALLOW, KUVERT_OUTBOUND_ALLOW_HTTP).
  server = await startTestServer({ config: { jobPollIntervalMs: NO_POLL, uploadPartSize: 1024, outboundAllow: ['127.0.0.1'], outboundAllowHttp: true } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'forms@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'flows@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SECUFLOWS_ACCESS'] });
  await createUserAsAdmin(server, admin, { email: 'alice@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'], licensed: true });
  formsAdmin = await signIn(server, 'forms@example.test', 'Good-Passw0rd');
  flowsUser = await signIn(server, 'flows@example.test', 'Good-Passw0rd');
  alice = await e2eActor(server, await signIn(server, 'alice@example.test', 'Good-Passw0rd'));
  await giveSecuPass(alice, 'Alice-Flows-SecuPass-Alder-17');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(() => {
  received.length = 0;
});

describe('Flows at levels 3 and 4', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('level 3: the browser encrypts submission.json; the webhook is signed and carries no value; the recipient decrypts the JSON', async () => {
    const form = await createForm();
    const secret = await withProcessService(form);
    const started = await submitAnonymously(await getPublicForm(createApiClient({ backendUrl: server.url }), form.url));
    // The submit answer gives the browser the head only the server knows (delivery, time, recipients).
    expect(started.submissionJsonHead).toMatchObject({ form: { uuid: form.formUuid, name: form.name, url: form.url }, submission: { deliveryUuid: started.deliveryUuid, securityLevel: 3, recipients: ['alice@example.test'] } });
    await server.app.jobs.whenIdle();

    // The recipient decrypts submission.json with her key: the same document the server builds at levels 1/2.
    const contents = await decryptedFiles(started.deliveryUuid);
    expect([...contents.keys()].sort()).toEqual([FORM_VALUES_FILE_NAME, 'scan.bin', SUBMISSION_JSON_FILE]);
    const json = SubmissionJsonSchema.strict().parse(JSON.parse(utf8Decode(contents.get(SUBMISSION_JSON_FILE)!)));
    expect(json).toEqual({
      schema: 'https://kuvert.example/schemas/form-submission/v1.json',
      version: 1,
      form: { uuid: form.formUuid, name: form.name, url: form.url },
      submission: { deliveryUuid: started.deliveryUuid, submittedAt: started.submissionJsonHead!.submission.submittedAt, language: 'en', securityLevel: 3, submitter: null, recipients: ['alice@example.test'] },
      fields: [
        { name: 'Full name', type: 'text', value: values['Full name'] },
        { name: 'Topics', type: 'checkbox', value: ['Sales', 'Billing'] },
        { name: 'Documents', type: 'file', value: [{ name: 'scan.bin', size: 700, type: '' }] },
        { name: 'Summary', type: 'textTemplate', value: `${values['Full name']} about Sales, Billing` },
      ],
    });

    // One signed POST with what the server knows, never a value.
    expect(received).toHaveLength(1);
    const request = received[0]!;
    expect(verifies(secret, request)).toBe(true);
    expect(verifies(`${secret}x`, request)).toBe(false);
    expect(request.body).not.toContain(VALUE_MARKER);
    const file = await server.app.db.selectFrom('delivery_files').select(['name', 'size', 'encrypted']).where('name', '=', SUBMISSION_JSON_FILE).where('delivery_id', '=', (await server.app.db.selectFrom('deliveries').select('id').where('uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow()).id).executeTakeFirstOrThrow();
    expect(file.encrypted).toBe(1);
    const body = FlowWebhookBodySchema.strict().parse(JSON.parse(request.body));
    expect(body).toMatchObject({ event: 'form.submission', version: 1, formUuid: form.formUuid, formName: form.name, deliveryUuid: started.deliveryUuid, securityLevel: 3, encrypted: true, submission: null, attachment: { name: SUBMISSION_JSON_FILE, size: Number(file.size) } });
    expect(Number(file.size)).toBeGreaterThan(contents.get(SUBMISSION_JSON_FILE)!.length); // the stored ciphertext
    expect(body.submittedAt).toBe(json.submission.submittedAt);
    expect(Date.parse(body.sentAt)).toBeGreaterThanOrEqual(Date.parse(body.submittedAt));

    // The Flows list: encrypted, no JSON, the attachment; the hand-off row holds no value either.
    const list = (await (await call(server, flowsUser, 'GET', api('/flows?limit=100'))).json()) as FlowList;
    expect(list.items.find((h) => h.deliveryUuid === started.deliveryUuid)).toMatchObject({ state: 'delivered', encrypted: true, submission: null, securityLevel: 3, attachment: { name: SUBMISSION_JSON_FILE, size: Number(file.size) } });
    const row = await server.app.db.selectFrom('flow_hand_offs').selectAll().where('delivery_uuid', '=', started.deliveryUuid).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(VALUE_MARKER);
  }, 120_000);

  it('level 4 the same; a level 3 form without the process service gets no head and no submission.json', async () => {
    const level4 = await createForm({ securityLevel: SECURITY_LEVELS.LEVEL_4 });
    await withProcessService(level4);
    const started = await submitAnonymously(await getPublicForm(createApiClient({ backendUrl: server.url }), level4.url));
    await server.app.jobs.whenIdle();
    const json = SubmissionJsonSchema.strict().parse(JSON.parse(utf8Decode((await decryptedFiles(started.deliveryUuid)).get(SUBMISSION_JSON_FILE)!)));
    expect(json.submission.securityLevel).toBe(4);
    expect(json.fields[0]).toEqual({ name: 'Full name', type: 'text', value: values['Full name'] });
    expect(received).toHaveLength(1);
    expect(FlowWebhookBodySchema.parse(JSON.parse(received[0]!.body))).toMatchObject({ securityLevel: 4, encrypted: true, submission: null, attachment: { name: SUBMISSION_JSON_FILE } });

    const plain = await createForm();
    const without = await submitAnonymously(await getPublicForm(createApiClient({ backendUrl: server.url }), plain.url));
    expect(without.submissionJsonHead).toBeNull();
    expect([...(await decryptedFiles(without.deliveryUuid)).keys()].sort()).toEqual([FORM_VALUES_FILE_NAME, 'scan.bin']);
  }, 120_000);
});
