import { createHmac } from 'node:crypto';
import { createApiClient } from '@shared/api/client';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { FlowAttempt, FlowAttemptList } from '@shared/contract/flow-attempts';
import { FLOW_WEBHOOK_HEADERS, FlowWebhookBodySchema, type HandOff, type ProcessServiceSecret } from '@shared/contract/flows';
import type { Form } from '@shared/contract/forms';
import { sendDelivery } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { startWebhookReceiver, type WebhookReceiver } from '@tests/support/webhook-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_WEBHOOK_JOB } from '../../server/forms/flow-handoff';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { createFormAs, formApi, getJson, submitValues } from './form-helpers';

// The webhook's delivery log, "Send test" and "Send again" (issue 33 §3) against the real server
// (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL) and a real in-process receiver.

let server: TestServer;
let owner: Session; // ROLE_SECUFORMS, creates the form
let colleague: Session; // ROLE_SECUFORMS, not an editor
let flowsUser: Session; // ROLE_SECUFLOWS_ACCESS only
let receiver: WebhookReceiver;
let receiverUrl: string;
/** What the receiver got; the statuses it answers, in order (200 once they are used up). */
let received: WebhookReceiver['received'];
let script: number[];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ url: receiverUrl, received, script } = receiver);
  // The queue never polls by itself (a kick runs it); the loopback receiver is allow-listed.
  server = await startTestServer({ config: { jobPollIntervalMs: 600_000, webhookAttempts: 2, webhookRetryDelayMs: 60_000, outboundAllow: ['127.0.0.1'], outboundAllowHttp: true } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'colleague@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_SECUFORMS'], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'flows@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SECUFLOWS_ACCESS'] });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  colleague = await signIn(server, 'colleague@example.test', 'Good-Passw0rd');
  flowsUser = await signIn(server, 'flows@example.test', 'Good-Passw0rd');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function formWithWebhook(): Promise<{ form: Form; secret: string }> {
  const form = await createFormAs(server, owner, { name: 'Hooked', url: 'hooked', active: true, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['recipient@example.test'], customFields: [{ name: 'Name', type: 'text', textAreaSize: 1 }] });
  const made = await call(server, owner, 'POST', formApi(`/forms/${form.formUuid}/process-service/secret`));
  const { secret } = (await made.json()) as ProcessServiceSecret;
  expect((await call(server, owner, 'PUT', formApi(`/forms/${form.formUuid}/process-service`), { enabled: true, webhookUrl: receiverUrl })).status).toBe(200);
  return { form, secret };
}

const attempts = (form: Form) => getJson<FlowAttemptList>(server, owner, `/forms/${form.formUuid}/process-service/attempts`);

describe('webhook delivery log', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('logs a failed attempt; "send again" delivers; "send test" posts a signed test body; others are refused', async () => {
    const { form, secret } = await formWithWebhook();
    const base = `/forms/${form.formUuid}/process-service`;
    // Who may call: the form's editors only (the Flows role alone is not enough), never anonymous.
    for (const [session, status] of [[colleague, 403], [flowsUser, 403], [null, 401]] as const) {
      await expectBackendError(await call(server, session, 'GET', formApi(`${base}/attempts`)), status);
      await expectBackendError(await call(server, session, 'POST', formApi(`${base}/test`)), status);
    }
    expect((await attempts(form)).items).toEqual([]);

    // A submission whose webhook answers 500 twice: the first attempt leaves it pending, the log says when the next is due.
    script.push(500, 500);
    const started = await submitValues(server, form.url, { Name: 'Paula' });
    const client = createApiClient({ backendUrl: server.url, fetch: (input, init = {}) => fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${started.sessionToken}` } }) });
    expect((await sendDelivery({ client, draft: { deliveryUuid: started.deliveryUuid }, files: [] })).ok).toBe(true);
    server.app.jobs.kick();
    await server.app.jobs.whenIdle();
    const first = (await attempts(form)).items;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ test: false, statusCode: 500, error: 'The webhook answered HTTP 500', handOffState: 'pending' });
    expect(first[0]!.nextAttemptAt).toBeGreaterThan(first[0]!.at);
    expect(first[0]!.durationMs).toBeGreaterThanOrEqual(0);
    const handOffId = first[0]!.handOffId!;
    const again = formApi(`${base}/hand-offs/${handOffId}/send-again`);
    // Still pending: nothing to send again.
    await expectBackendError(await call(server, owner, 'POST', again), 409);
    // The retry delay passes: the second 500 fails it.
    await server.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('kind', '=', FLOW_WEBHOOK_JOB).where('state', '=', 'pending').execute();
    server.app.jobs.kick();
    await server.app.jobs.whenIdle();
    expect((await attempts(form)).items.map((a) => [a.statusCode, a.handOffState, a.nextAttemptAt])).toEqual([[500, 'failed', null], [500, 'failed', null]]);

    // Send again: others refused, an unknown id 404; then delivered, with the same hand-off id.
    await expectBackendError(await call(server, colleague, 'POST', again), 403);
    await expectBackendError(await call(server, owner, 'POST', formApi(`${base}/hand-offs/no-such/send-again`)), 404);
    const queued = await call(server, owner, 'POST', again);
    expect(queued.status, await queued.clone().text()).toBe(200);
    expect(((await queued.json()) as HandOff).handOffId).toBe(handOffId);
    await server.app.jobs.whenIdle();
    const log = (await attempts(form)).items;
    expect(log.map((a) => a.statusCode)).toEqual([200, 500, 500]);
    expect(log[0]).toMatchObject({ handOffId, handOffState: 'delivered', error: null });
    expect(received.map((r) => r.headers[FLOW_WEBHOOK_HEADERS.handOff])).toEqual([handOffId, handOffId, handOffId]);
    // A delivered hand-off may be sent again too.
    expect((await call(server, owner, 'POST', again)).status).toBe(200);
    await server.app.jobs.whenIdle();
    await server.app.db.deleteFrom('jobs').where('kind', '=', FLOW_WEBHOOK_JOB).execute();

    // Send test: signed like the others, marked as a test, logged.
    received.length = 0;
    const tested = await call(server, owner, 'POST', formApi(`${base}/test`));
    expect(tested.status, await tested.clone().text()).toBe(200);
    expect((await tested.json()) as FlowAttempt).toMatchObject({ test: true, statusCode: 200, handOffId: null });
    const body = FlowWebhookBodySchema.parse(JSON.parse(received[0]!.body));
    expect(body).toMatchObject({ event: 'form.test', test: true, formUuid: form.formUuid, submission: null });
    expect(received[0]!.headers[FLOW_WEBHOOK_HEADERS.event]).toBe('form.test');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(received[0]!.headers[FLOW_WEBHOOK_HEADERS.signature]))!;
    expect(createHmac('sha256', secret).update(`${match[1]}.${received[0]!.body}`).digest('hex')).toBe(match[2]);
    expect((await attempts(form)).items[0]).toMatchObject({ test: true, statusCode: 200 });
    // Nothing of the receiver's answer reaches the log.
    expect(JSON.stringify(await attempts(form))).not.toContain('receiver-internal-answer');
  });

  it('"send test" without a webhook: 409 in the SPEC error shape', async () => {
    const form = await createFormAs(server, owner, { name: 'Plain', url: 'plain', active: true, securityLevel: SECURITY_LEVELS.LEVEL_1, mandatoryRecipients: ['recipient@example.test'] });
    await expectBackendError(await call(server, owner, 'POST', formApi(`/forms/${form.formUuid}/process-service/test`)), 409);
  });
});
