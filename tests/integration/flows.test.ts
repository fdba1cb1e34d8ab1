import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import {
  FLOW_WEBHOOK_HEADERS,
  FlowWebhookBodySchema,
  SUBMISSION_JSON_FILE,
  SubmissionJsonSchema,
  type FlowList,
  type HandOff,
  type ProcessService,
  type ProcessServiceSecret,
  type SubmissionJson,
} from '@shared/contract/flows';
import type { Form, FormInput, FormSubmitResponse } from '@shared/contract/forms';
import { sendDelivery } from '@shared/transfer';
import enFlows from '@locales/en/flows.json';
import { selfSignedTls } from '@tests/support/self-signed-tls';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FLOW_WEBHOOK_JOB } from '../../server/forms/flow-handoff';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

// Flows (issue 16 §3) against the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
// the process-service option, submission.json in the delivery, the signed webhook through the job
// queue against an in-process receiver (retry, permanent failure, retry button), the Flows list,
// and one hand-off per submission with two servers on one database.

/** The servers never poll by themselves: a kick starts the queue, `whenIdle` awaits it; time passing is `run_at` moved into the past. */
const NO_POLL = 600_000;
const ATTEMPTS = 3;

let a: TestServer;
let b: TestServer;
let formsAdmin: Session; // ROLE_SECUFORMS
let flowsUser: Session; // ROLE_SECUFLOWS_ACCESS
let recipient: Session;

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers, in order; 200 once they are used up. */
let script: number[] = [];
/** The receiver's body: nothing of it may reach the Flows page. */
const RECEIVER_ANSWER = 'receiver-internal-answer';

const api = (path: string) => `/api/2${path}`;
let counter = 0;

function formInput(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Claim ${n}`,
    url: `claim-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['recipient@example.test'],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Topics', type: 'checkbox', options: ['Sales', 'Support', 'Billing'] },
      { name: 'Contact', type: 'email' },
      { name: 'Documents', type: 'file', maxFileSizeKb: 10, allowedFileTypes: '.pdf' },
      { name: 'Terms', type: 'link', defaultValue: 'https://example.test/terms' },
      { name: 'Summary', type: 'textTemplate', defaultValue: '{field:Full name} about {field:Topics}' },
    ],
    ...overrides,
  };
}

async function createForm(): Promise<Form> {
  const response = await call(a, formsAdmin, 'POST', api('/forms'), formInput());
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

async function processService(form: Form, webhookUrl = ''): Promise<string | null> {
  let secret: string | null = null;
  if (webhookUrl !== '') {
    const made = await call(a, formsAdmin, 'POST', api(`/forms/${form.formUuid}/process-service/secret`));
    expect(made.status).toBe(201);
    secret = ((await made.json()) as ProcessServiceSecret).secret;
  }
  const saved = await call(a, formsAdmin, 'PUT', api(`/forms/${form.formUuid}/process-service`), { enabled: true, webhookUrl });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return secret;
}

function bearerClient(server: TestServer, token: string): ApiClient {
  return createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }) });
}

const values = { 'Full name': 'Paula Partner', Topics: ['Sales', 'Billing'], Contact: 'paula@outside.test', Documents: [{ name: 'scan.pdf', size: 1200, type: 'application/pdf' }] };

/** An anonymous submission, uploaded and sent through the ordinary delivery calls (on `server`). */
async function submit(form: Form, server = a): Promise<string> {
  const response = await fetch(`${server.url}${api(`/public-forms/${form.url}/submissions`)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ values, language: 'en' }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const started = (await response.json()) as FormSubmitResponse;
  const result = await sendDelivery({
    client: bearerClient(server, started.sessionToken),
    draft: { deliveryUuid: started.deliveryUuid },
    files: [{ name: 'scan.pdf', blob: new Blob([new Uint8Array(1200).fill(7)], { type: 'application/pdf' }) }],
  });
  expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
  return started.deliveryUuid;
}

async function handOffs(query = '', session = flowsUser): Promise<FlowList> {
  const response = await call(a, session, 'GET', api(`/flows${query}`));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as FlowList;
}
const handOffOf = async (deliveryUuid: string): Promise<HandOff> => (await handOffs('?limit=100')).items.find((h) => h.deliveryUuid === deliveryUuid)!;

/** Lets the retry delay pass (the webhook jobs become due) and runs the queue on A. */
async function nextRetry(): Promise<void> {
  await a.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('kind', '=', FLOW_WEBHOOK_JOB).where('state', '=', 'pending').execute();
  a.app.jobs.kick();
  await a.app.jobs.whenIdle();
}

/** What a receiver does (docs/flows.md): recompute the HMAC over "<t>.<body>" and compare in constant time. */
function verifies(secret: string, request: Received): boolean {
  const header = String(request.headers[FLOW_WEBHOOK_HEADERS.signature]);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${request.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = script.shift() ?? 200;
      if (response.statusCode >= 300 && response.statusCode < 400) response.setHeader('location', '/followed');
      response.end(RECEIVER_ANSWER);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  // The loopback receiver is reachable through the operator's allow-list and plain http allowed (README "Configuration").
  const config = { jobPollIntervalMs: NO_POLL, webhookAttempts: ATTEMPTS, webhookRetryDelayMs: 60_000, uploadPartSize: 1024, outboundAllow: ['127.0.0.1'], outboundAllowHttp: true };
  a = await startTestServer({ config });
  const admin = await signInAdmin(a);
  await createUserAsAdmin(a, admin, { email: 'forms@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(a, admin, { email: 'flows@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SECUFLOWS_ACCESS'] });
  await createUserAsAdmin(a, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  formsAdmin = await signIn(a, 'forms@example.test', 'Good-Passw0rd');
  flowsUser = await signIn(a, 'flows@example.test', 'Good-Passw0rd');
  recipient = await signIn(a, 'recipient@example.test', 'Good-Passw0rd');
  b = await startTestServer({ config, reuse: { dataDir: a.dataDir, databaseSchema: a.databaseSchema } });
}, 60_000);
afterAll(async () => {
  await b?.close({ keepData: true });
  await a?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  script = [];
});

describe('Flows', () => {
  it('runs on the database the environment asks for', () => {
    expect(a.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('the process-service option: form administrators only, http(s) webhook, a secret shown once', async () => {
    const form = await createForm();
    const path = api(`/forms/${form.formUuid}/process-service`);
    await expectBackendError(await call(a, flowsUser, 'GET', path), 403, 'AccessDeniedException');
    await expectBackendError(await call(a, null, 'GET', path), 401);
    expect(await (await call(a, formsAdmin, 'GET', path)).json()).toEqual({ enabled: false, webhookUrl: '', secretSet: false, secretCreatedAt: null });
    await expectBackendError(await call(a, formsAdmin, 'GET', api('/forms/no-such-form/process-service')), 404);

    // A webhook needs the secret first; only http(s), no credentials in the URL.
    const missing = await expectBackendError(await call(a, formsAdmin, 'PUT', path, { enabled: true, webhookUrl: receiverUrl }), 400, 'ValidationException');
    expect(missing.metadata).toMatchObject({ problems: [{ field: 'webhookUrl', reason: 'secretMissing' }] });
    const first = (await (await call(a, formsAdmin, 'POST', `${path}/secret`)).json()) as ProcessServiceSecret;
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    for (const [url, reason] of [['ftp://example.test/x', 'invalidUrl'], ['not a url', 'invalidUrl'], ['javascript:alert(1)', 'invalidUrl'], ['https://user:pw@example.test/', 'credentialsInUrl']] as const) {
      const refused = await expectBackendError(await call(a, formsAdmin, 'PUT', path, { enabled: true, webhookUrl: url }), 400, 'ValidationException');
      expect(refused.metadata, url).toMatchObject({ problems: [{ field: 'webhookUrl', reason }] });
    }
    const saved = (await (await call(a, formsAdmin, 'PUT', path, { enabled: true, webhookUrl: receiverUrl })).json()) as ProcessService;
    expect(saved).toMatchObject({ enabled: true, webhookUrl: receiverUrl, secretSet: true, secretCreatedAt: first.secretCreatedAt });
    // The secret is never answered again, and at rest it is sealed.
    expect(JSON.stringify(await (await call(a, formsAdmin, 'GET', path)).json())).not.toContain(first.secret);
    const row = await a.app.db.selectFrom('form_flows').selectAll().executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(first.secret.slice(6));
    // Rotating gives a new one.
    const second = (await (await call(a, formsAdmin, 'POST', `${path}/secret`)).json()) as ProcessServiceSecret;
    expect(second.secret).not.toBe(first.secret);
  });

  it('the Flows list is ROLE_SECUFLOWS_ACCESS only', async () => {
    await expectBackendError(await call(a, null, 'GET', api('/flows')), 401);
    await expectBackendError(await call(a, formsAdmin, 'GET', api('/flows')), 403, 'AccessDeniedException');
    await expectBackendError(await call(a, formsAdmin, 'POST', api('/flows/x/retry')), 403, 'AccessDeniedException');
    await expectBackendError(await call(a, flowsUser, 'GET', api('/flows?cursor=abc')), 400);
    await expectBackendError(await call(a, flowsUser, 'POST', api('/flows/no-such/retry')), 404);
  });

  it('a submission carries submission.json: valid against the schema and equal to what was submitted', async () => {
    const form = await createForm();
    await processService(form);
    const deliveryUuid = await submit(form);

    const detail = (await (await call(a, recipient, 'GET', api(`/deliveries/${deliveryUuid}`))).json()) as { files: Array<{ fileId: string; name: string; mimeType: string }> };
    expect(detail.files.map((f) => f.name).sort()).toEqual(['scan.pdf', SUBMISSION_JSON_FILE]);
    const file = detail.files.find((f) => f.name === SUBMISSION_JSON_FILE)!;
    expect(file.mimeType).toBe('application/json');
    const content = await fetch(`${a.url}${api(DELIVERY_PATHS.content(deliveryUuid, file.fileId))}`, { headers: { cookie: recipient.cookie } });
    expect(content.status).toBe(200);
    const json = SubmissionJsonSchema.strict().parse(await content.json());
    expect(json).toEqual({
      schema: 'https://kuvert.example/schemas/form-submission/v1.json',
      version: 1,
      form: { uuid: form.formUuid, name: form.name, url: form.url },
      submission: { deliveryUuid, submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown, language: 'en', securityLevel: 1, submitter: null, recipients: ['recipient@example.test'] },
      fields: [
        { name: 'Full name', type: 'text', value: 'Paula Partner' },
        { name: 'Topics', type: 'checkbox', value: ['Sales', 'Billing'] },
        { name: 'Contact', type: 'email', value: 'paula@outside.test' },
        { name: 'Documents', type: 'file', value: [{ name: 'scan.pdf', size: 1200, type: 'application/pdf' }] },
        { name: 'Summary', type: 'textTemplate', value: 'Paula Partner about Sales, Billing' },
      ],
    } satisfies Record<keyof SubmissionJson, unknown>);

    // Without a webhook the Flows page shows it with its JSON, nothing is posted.
    await a.app.jobs.whenIdle();
    const handOff = await handOffOf(deliveryUuid);
    expect(handOff).toMatchObject({ formUuid: form.formUuid, formName: form.name, state: 'noWebhook', attempts: 0, securityLevel: 1 });
    expect(handOff.submission).toEqual(json);
    expect(received).toHaveLength(0);
  });

  it('a form without the process service attaches nothing and hands nothing off', async () => {
    const form = await createForm();
    const deliveryUuid = await submit(form);
    const detail = (await (await call(a, recipient, 'GET', api(`/deliveries/${deliveryUuid}`))).json()) as { files: Array<{ name: string }> };
    expect(detail.files.map((f) => f.name)).toEqual(['scan.pdf']);
    expect((await handOffs('?limit=100')).items.some((h) => h.deliveryUuid === deliveryUuid)).toBe(false);
  });

  it('the webhook: signed body, a 500 then a 200 → delivered after one retry', async () => {
    const form = await createForm();
    const secret = (await processService(form, receiverUrl))!;
    script = [500];
    const deliveryUuid = await submit(form);
    await a.app.jobs.whenIdle();
    expect(received).toHaveLength(1);
    const waiting = await handOffOf(deliveryUuid);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, lastError: 'The webhook answered HTTP 500' });
    // The list says when the retry is due (issue 33 §2): the queued job's time, one retry delay (60 s) on.
    const job = await a.app.db.selectFrom('jobs').select('run_at').where('kind', '=', FLOW_WEBHOOK_JOB).where('payload', '=', JSON.stringify({ handOffId: waiting.handOffId })).executeTakeFirstOrThrow();
    expect(waiting.nextAttemptAt).toBe(Number(job.run_at));
    expect(waiting.nextAttemptAt! - waiting.lastAttemptAt!).toBeGreaterThanOrEqual(60_000);
    expect(waiting.nextAttemptAt! - Date.now()).toBeLessThanOrEqual(60_000);

    await nextRetry();
    expect(received).toHaveLength(2);
    const handOff = await handOffOf(deliveryUuid);
    expect(handOff).toMatchObject({ state: 'delivered', attempts: 2, lastError: null, nextAttemptAt: null });
    expect(handOff.deliveredAt).toBeGreaterThan(0);

    for (const request of received) {
      expect(request.path).toBe('/hook');
      expect(request.headers['content-type']).toBe('application/json');
      expect(verifies(secret, request)).toBe(true);
      expect(verifies(`${secret}x`, request)).toBe(false);
      expect(verifies(secret, { ...request, body: request.body.replace('Paula', 'Pavla') })).toBe(false);
      expect(request.headers[FLOW_WEBHOOK_HEADERS.handOff]).toBe(handOff.handOffId);
      const body = FlowWebhookBodySchema.strict().parse(JSON.parse(request.body));
      expect(body).toMatchObject({ event: 'form.submission', version: 1, handOffId: handOff.handOffId, formUuid: form.formUuid, deliveryUuid, securityLevel: 1 });
      expect(body.submission).toEqual(handOff.submission);
    }
    // Nothing left on the queue.
    expect(await a.app.db.selectFrom('jobs').selectAll().where('kind', '=', FLOW_WEBHOOK_JOB).execute()).toHaveLength(0);
  });

  it('permanent failures end as failed: a 410 at once, 5xx after the last attempt; the retry button queues it again', async () => {
    const form = await createForm();
    await processService(form, receiverUrl);
    script = [410];
    const gone = await submit(form);
    await a.app.jobs.whenIdle();
    expect(await handOffOf(gone)).toMatchObject({ state: 'failed', attempts: 1, lastError: 'The webhook answered HTTP 410' });

    script = Array<number>(ATTEMPTS).fill(503);
    const down = await submit(form);
    await a.app.jobs.whenIdle();
    for (let i = 1; i < ATTEMPTS; i++) await nextRetry();
    expect(await handOffOf(down)).toMatchObject({ state: 'failed', attempts: ATTEMPTS, lastError: 'The webhook answered HTTP 503' });
    expect(received).toHaveLength(1 + ATTEMPTS);

    // Retry: only a failed one (409 otherwise), then it goes out again.
    const failed = await handOffOf(down);
    const retried = await call(a, flowsUser, 'POST', api(`/flows/${failed.handOffId}/retry`));
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as HandOff).state).toMatch(/pending|delivered/);
    await a.app.jobs.whenIdle();
    expect(await handOffOf(down)).toMatchObject({ state: 'delivered', attempts: ATTEMPTS + 1 });
    await expectBackendError(await call(a, flowsUser, 'POST', api(`/flows/${failed.handOffId}/retry`)), 409);

    // A receiver that does not answer at all (connection refused) is retried like a 5xx.
    await call(a, formsAdmin, 'PUT', api(`/forms/${form.formUuid}/process-service`), { enabled: true, webhookUrl: 'http://127.0.0.1:1/hook' });
    const refused = await submit(form);
    await a.app.jobs.whenIdle();
    // The Flows page reads our own words, not the address and port the socket error names.
    expect(await handOffOf(refused)).toMatchObject({ state: 'pending', attempts: 1, lastError: 'The webhook could not be reached: The connection was refused' });
    // Turning the process service off ends a pending hand-off as failed.
    await call(a, formsAdmin, 'PUT', api(`/forms/${form.formUuid}/process-service`), { enabled: false, webhookUrl: '' });
    await nextRetry();
    expect(await handOffOf(refused)).toMatchObject({ state: 'failed', lastError: 'The form no longer hands submissions to a webhook' });
  });

  it('lists newest first by cursor, searches with q', async () => {
    const form = await createForm();
    await processService(form);
    const made = [await submit(form), await submit(form), await submit(form)];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: FlowList = await handOffs(`?limit=2&q=${encodeURIComponent(form.name)}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((h) => h.deliveryUuid!));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    // q searches the JSON (field values) too, case-insensitive; wildcards are literal.
    expect((await handOffs('?q=PAULA%20PARTNER&limit=100')).items.length).toBeGreaterThanOrEqual(3);
    expect((await handOffs('?q=%25')).items).toHaveLength(0);
    expect((await handOffs('?q=nobody-wrote-this')).items).toHaveLength(0);
  });

  it('two servers on one database: each hand-off is posted exactly once', async () => {
    const form = await createForm();
    await processService(form, receiverUrl);
    const made = [await submit(form, a), await submit(form, b), await submit(form, a), await submit(form, b)];
    a.app.jobs.kick();
    b.app.jobs.kick();
    await Promise.all([a.app.jobs.whenIdle(), b.app.jobs.whenIdle()]);
    const ids = received.map((r) => String(r.headers[FLOW_WEBHOOK_HEADERS.handOff]));
    expect(ids).toHaveLength(made.length);
    expect(new Set(ids).size).toBe(made.length);
    for (const deliveryUuid of made) expect(await handOffOf(deliveryUuid)).toMatchObject({ state: 'delivered', attempts: 1 });
  });
});

// The outbound guard (server/outbound/outbound-guard.ts) on the webhook: two more servers on the
// same database with the operator settings unset — `strict`: nothing internal, https only;
// `httpOnly`: plain http allowed, no allow-list. A is the operator who allow-listed 127.0.0.1.
describe('Flows webhook: outbound guard', () => {
  let strict: TestServer;
  let httpOnly: TestServer;
  let strictAdmin: Session;
  let httpOnlyAdmin: Session;
  const put = (server: TestServer, session: Session, form: Form, webhookUrl: string) =>
    call(server, session, 'PUT', api(`/forms/${form.formUuid}/process-service`), { enabled: true, webhookUrl });

  beforeAll(async () => {
    const base = { jobPollIntervalMs: NO_POLL, webhookAttempts: ATTEMPTS, webhookRetryDelayMs: 60_000, uploadPartSize: 1024 };
    strict = await startTestServer({ config: base, reuse: { dataDir: a.dataDir, databaseSchema: a.databaseSchema } });
    httpOnly = await startTestServer({ config: { ...base, outboundAllowHttp: true }, reuse: { dataDir: a.dataDir, databaseSchema: a.databaseSchema } });
    strictAdmin = await signIn(strict, 'forms@example.test', 'Good-Passw0rd');
    httpOnlyAdmin = await signIn(httpOnly, 'forms@example.test', 'Good-Passw0rd');
  }, 60_000);
  afterAll(async () => {
    await strict?.close({ keepData: true });
    await httpOnly?.close({ keepData: true });
  });

  it('refuses internal, loopback, link-local and metadata addresses at save, in every spelling (400 ValidationException, blockedAddress)', async () => {
    const form = await createForm();
    await processService(form, receiverUrl);
    const port = new URL(receiverUrl).port;
    for (const host of ['10.0.0.1', '169.254.169.254', '127.0.0.1', `127.0.0.1:${port}`, '[::1]', '0x7f000001', '2130706433', '127.1', '[::ffff:127.0.0.1]', '[fe80::1]', '[fd00::1]', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '240.0.0.1', 'localhost', `localhost:${port}`]) {
      for (const [server, session, scheme] of [[strict, strictAdmin, 'https'], [httpOnly, httpOnlyAdmin, 'http']] as const) {
        const url = `${scheme}://${host}/hook`;
        const refused = await expectBackendError(await put(server, session, form, url), 400, 'ValidationException');
        expect(refused.metadata, url).toEqual({ problems: [{ field: 'webhookUrl', reason: 'blockedAddress' }] });
        expect(refused.message, url).toMatch(/^The webhook URL is not accepted: The address points at an internal or reserved network \(\w+\)/);
      }
    }
    // The page has words for every reason the guard answers (de and fr: the i18n suite keeps them equal).
    for (const reason of ['blockedAddress', 'httpNotAllowed', 'unresolvable', 'invalidUrl', 'credentialsInUrl']) expect(enFlows.processService.problems).toHaveProperty(reason);
    // Nothing was stored: the allowed webhook is still the one saved on A.
    expect(((await (await call(a, formsAdmin, 'GET', api(`/forms/${form.formUuid}/process-service`))).json()) as ProcessService).webhookUrl).toBe(receiverUrl);
  });

  it('plain http only where the operator allows it; the allow-list admits the loopback receiver by address and by a name resolving to it', async () => {
    const form = await createForm();
    await processService(form, receiverUrl);
    const refused = await expectBackendError(await put(strict, strictAdmin, form, 'http://93.184.215.14/hook'), 400, 'ValidationException');
    expect(refused.metadata).toEqual({ problems: [{ field: 'webhookUrl', reason: 'httpNotAllowed' }] });
    expect(refused.message).toContain('KUVERT_OUTBOUND_ALLOW_HTTP');
    const unknown = await expectBackendError(await put(strict, strictAdmin, form, 'https://no-such-host.invalid/hook'), 400, 'ValidationException');
    expect(unknown.metadata).toEqual({ problems: [{ field: 'webhookUrl', reason: 'unresolvable' }] });
    // A: 127.0.0.1 allow-listed, http allowed. `localhost` resolves (/etc/hosts) to the allowed address.
    const byName = receiverUrl.replace('127.0.0.1', 'localhost');
    expect((await put(a, formsAdmin, form, byName)).status).toBe(200);
    expect((await put(a, formsAdmin, form, receiverUrl)).status).toBe(200);
    // Another loopback address is not on A's list.
    const other = await expectBackendError(await put(a, formsAdmin, form, 'http://127.0.0.2/hook'), 400, 'ValidationException');
    expect(other.metadata).toEqual({ problems: [{ field: 'webhookUrl', reason: 'blockedAddress' }] });
    const deliveryUuid = await submit(form);
    await a.app.jobs.whenIdle();
    expect(received.map((r) => r.path)).toEqual(['/hook']);
    expect(await handOffOf(deliveryUuid)).toMatchObject({ state: 'delivered', attempts: 1 });
  });

  it('checks again at connect time: a server whose allow-list does not hold the stored address refuses to send (failed at once, nothing posted)', async () => {
    const form = await createForm();
    await processService(form, receiverUrl); // saved on A, where 127.0.0.1 is allowed
    const deliveryUuid = await submit(form, httpOnly); // queued and run on a server without the allow-list
    await httpOnly.app.jobs.whenIdle();
    expect(received).toHaveLength(0);
    const handOff = await handOffOf(deliveryUuid);
    expect(handOff).toMatchObject({ state: 'failed', attempts: 1 });
    expect(handOff.lastError).toMatch(/^The webhook could not be reached: Refused before connecting: The address points at an internal or reserved network \(loopback\)/);
    expect(handOff.lastError).not.toContain('127.0.0.1');
    // https-only server: the stored http webhook is refused for its scheme.
    const again = await submit(form, strict);
    await strict.app.jobs.whenIdle();
    expect(received).toHaveLength(0);
    expect((await handOffOf(again)).lastError).toContain('Only https addresses are accepted');
    // Once the operator's list holds it (server A), the retry goes out.
    expect((await call(a, flowsUser, 'POST', api(`/flows/${handOff.handOffId}/retry`))).status).toBe(200);
    await a.app.jobs.whenIdle();
    expect(await handOffOf(deliveryUuid)).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(received).toHaveLength(1);
  });

  it('https goes through the same gate with the certificate checked: a self-signed receiver fails in safe words', async () => {
    const tls = createHttpsServer(selfSignedTls(), (request, response) => {
      received.push({ path: request.url ?? '', headers: request.headers, body: '' });
      response.end(RECEIVER_ANSWER);
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const form = await createForm();
      await processService(form, `https://127.0.0.1:${(tls.address() as AddressInfo).port}/hook`);
      const deliveryUuid = await submit(form);
      await a.app.jobs.whenIdle();
      expect(received).toHaveLength(0);
      expect(await handOffOf(deliveryUuid)).toMatchObject({ state: 'pending', attempts: 1, lastError: 'The webhook could not be reached: The TLS certificate was not accepted' });
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it('a redirect is not followed, and nothing of the answer reaches the Flows page', async () => {
    const form = await createForm();
    await processService(form, receiverUrl);
    script = [302, 500];
    const deliveryUuid = await submit(form);
    await a.app.jobs.whenIdle();
    expect(received.map((r) => r.path)).toEqual(['/hook']);
    expect(await handOffOf(deliveryUuid)).toMatchObject({ state: 'pending', attempts: 1, lastError: 'The webhook answered HTTP 302' });
    await nextRetry();
    expect(received.map((r) => r.path)).toEqual(['/hook', '/hook']);
    const handOff = await handOffOf(deliveryUuid);
    expect(handOff).toMatchObject({ state: 'pending', attempts: 2, lastError: 'The webhook answered HTTP 500' });
    expect(JSON.stringify(await handOffs('?limit=100'))).not.toContain(RECEIVER_ANSWER);
  });
});
