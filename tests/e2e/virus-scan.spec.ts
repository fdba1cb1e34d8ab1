// The review state in the browser, against a real server and a real clamd (tests/support/clamd.ts):
// a delivery with the EICAR string is listed as "Blocked: virus found", its detail says why and
// the download button is disabled; a delivery under review says "being checked", its button
// unlocks by itself once clamd answers, and the bytes then arrive exact. The sender's send page
// says "scanning for viruses" after the upload and then the outcome; the sent detail shows it too.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { CONTENT_SHA256_HEADER, DELIVERY_PATHS, type DeliveryDetail, type DeliveryUploadFile, type ReviewState } from '@shared/contract/deliveries';
import { clamdUnavailable, EICAR, startTestClamd, type TestClamd } from '../support/clamd';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en, openSendPage, pickFiles, recipientsInput, signInToInbox, type ApiSession, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { testFileBytes } from '@tests/support/files';

const PART_SIZE = 1024;
const PASSWORD = 'Good-Passw0rd-e2e';
const alice = { email: 'alice.scan@example.test', password: PASSWORD };
const bob = { email: 'bob.scan@example.test', password: PASSWORD };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const skipReason = clamdUnavailable();
let clamd: TestClamd;
let server: TestServer;

test.describe.configure({ mode: 'serial' });
test.skip(skipReason !== null, skipReason ?? '');

test.beforeAll(async () => {
  clamd = await startTestClamd();
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE, clamdAddress: clamd.socket, jobPollIntervalMs: 200, clamdTimeoutMs: 30_000 } });
  const admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, firstName: 'Test', lastName: 'User', language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
});
test.afterAll(async () => {
  await server?.close();
  await clamd?.dispose();
});

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Level 2 delivery with one file, sent by Alice to Bob through the real API. */
async function send(session: ApiSession, subject: string, name: string, bytes: Uint8Array): Promise<DeliveryDetail> {
  const draft = await json<DeliveryDetail>(
    await apiCall(server, session, 'POST', DELIVERY_PATHS.create, { recipients: [bob.email], subject, body: 'Attached.', securityLevel: SECURITY_LEVELS.LEVEL_2, language: 'en' }),
    201,
  );
  const file = await json<DeliveryUploadFile>(await apiCall(server, session, 'POST', DELIVERY_PATHS.files(draft.deliveryUuid), { name, size: bytes.length, mimeType: 'application/pdf' }), 201);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * file.partSize, (i + 1) * file.partSize);
    const response = await apiCall(server, session, 'PUT', DELIVERY_PATHS.part(draft.deliveryUuid, file.fileId, i), new Blob([Uint8Array.from(part)]), {
      'content-type': 'application/octet-stream',
      [CONTENT_SHA256_HEADER]: sha256(part),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  await json(await apiCall(server, session, 'POST', DELIVERY_PATHS.commit(draft.deliveryUuid, file.fileId)), 200);
  return json<DeliveryDetail>(await apiCall(server, session, 'POST', DELIVERY_PATHS.send(draft.deliveryUuid)), 200);
}

async function waitForReview(session: ApiSession, deliveryUuid: string, state: ReviewState) {
  await expect
    .poll(async () => (await json<DeliveryDetail>(await apiCall(server, session, 'GET', DELIVERY_PATHS.one(deliveryUuid)), 200)).reviewState, { timeout: 20_000 })
    .toBe(state);
}


test('blocked and in-progress deliveries: review alerts, list badges, disabled downloads; the button unlocks after a clean scan', async ({ page }) => {
  test.setTimeout(120_000);
  const session = await apiSignIn(server, alice);
  const infected = await send(session, 'Virus inside', 'invoice.pdf', Buffer.concat([testFileBytes(300), EICAR, randomBytes(300)]));
  await waitForReview(session, infected.deliveryUuid, 'blockedVirus');
  clamd.freeze(); // the next scan hangs until thawed
  const clean = testFileBytes(2 * PART_SIZE + 5);
  const pending = await send(session, 'Being checked', 'report.pdf', clean);
  expect(pending.reviewState).toBe('inProgress');

  try {
    await signInToInbox(page, server, bob);
    const rows = page.getByRole('table', { name: 'Received deliveries' }).getByRole('row');
    await expect(rows.filter({ hasText: 'Virus inside' })).toContainText(en.deliveries.reviewState.blockedVirus);
    await expect(rows.filter({ hasText: 'Being checked' })).toContainText(en.deliveries.reviewState.inProgress);

    await page.getByRole('link', { name: 'Virus inside' }).click();
    await expect(page.getByRole('heading', { name: 'Virus inside' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(en.deliveries.alerts.blockedVirus);
    await expect(page.getByRole('button', { name: 'Download invoice.pdf' })).toBeDisabled();

    await page.goto(`${server.url}/secumails/inbox/${pending.deliveryUuid}`);
    await expect(page.getByRole('status').filter({ hasText: en.deliveries.alerts.reviewInProgress })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download report.pdf' })).toBeDisabled();
  } finally {
    clamd.thaw();
  }
  // The view polls while in progress: the alert goes, the download link appears.
  const link = page.getByRole('link', { name: 'Download report.pdf' });
  await expect(link).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(en.deliveries.alerts.reviewInProgress)).toHaveCount(0);
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(sha256(await readFile(await download.path()))).toBe(sha256(clean));
});

test('the sender sees "scanning for viruses" after the upload, then the block, on the success page and in the sent detail', async ({ page }) => {
  test.setTimeout(120_000);
  clamd.freeze(); // the scan hangs until thawed: the "scanning" state stays long enough to see
  try {
    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    await recipientsInput(page).fill(`${bob.email},`);
    await page.getByRole('textbox', { name: en.send.subject.label }).fill('Sent with a virus');
    await page.getByRole('textbox', { name: en.send.body.label }).fill('See attached.');
    await page.getByRole('radio', { name: en.send.level.level2.title }).check();
    await pickFiles(page, [
      { name: 'payload.txt', bytes: Buffer.concat([testFileBytes(200), EICAR, randomBytes(200)]) },
      { name: 'notes.txt', bytes: testFileBytes(3 * PART_SIZE) },
    ]);
    await page.getByRole('button', { name: en.send.submit }).click();
    await expect(page.getByRole('heading', { name: en.send.success.title })).toBeVisible({ timeout: 30_000 });
    // Not "the recipients are notified": they are mailed only after a clean scan.
    await expect(page.getByText(en.send.success.textScanning.replace('“{{subject}}”', '“Sent with a virus”').replace('{{recipients}}', bob.email))).toBeVisible();
    const scanning = page.getByRole('status').filter({ hasText: en.send.scan.inProgressTitle });
    await expect(scanning).toBeVisible();
    await expect(scanning).toContainText(`payload.txt: ${en.deliveries.scanState.scanning}`);
    await expect(scanning).toContainText(`notes.txt: ${en.deliveries.scanState.scanning}`);
  } finally {
    clamd.thaw();
  }
  // The page polls the delivery: the block replaces the "scanning" state, naming the infected file.
  const blocked = page.getByRole('alert').filter({ hasText: en.send.scan.blockedTitle });
  await expect(blocked).toContainText(en.send.scan.blockedVirus, { timeout: 30_000 });
  await expect(blocked).toContainText(`payload.txt: ${en.deliveries.scanState.virusDetected}`);
  await expect(page.getByText(en.send.scan.inProgressTitle)).toHaveCount(0);

  // The sent detail says the same: the review alert and the infected file's badge.
  await page.getByRole('button', { name: en.send.success.toSent }).click();
  await page.getByRole('link', { name: 'Sent with a virus' }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/secumails/outbox/[0-9a-f-]{36}$`));
  await expect(page.getByRole('alert')).toContainText(en.deliveries.alerts.blockedVirus);
  await expect(page.getByRole('listitem').filter({ hasText: 'payload.txt' })).toContainText(en.deliveries.scanState.virusDetected);
  await expect(page.getByRole('button', { name: 'Download payload.txt' })).toBeDisabled();
});
