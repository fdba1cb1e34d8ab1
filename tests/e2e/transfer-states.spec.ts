// Issue 34: SPEC §4 transfer and upload states in the browser against a real server. A room upload
// is paused from the transfer centre while its parts are held on the wire, shows "Paused", sends
// nothing more, and on Resume continues from the parts the server holds — the file downloads with
// its very bytes. With a real clamd the committed file shows "scanning for viruses" in the transfer
// centre, and "done" once the scan decided. The public form page shows each file field's allowed
// sizes and names the limit when a file is too large. axe on the transfer centre and the form page.
import { readFile } from 'node:fs/promises';
import { expect, type Page, type Route } from '@playwright/test';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { Form } from '@shared/contract/forms';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { clamdUnavailable, startTestClamd } from '../support/clamd';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, locale, setSettingsAsAdmin, signInToInbox, test } from './fixtures';
import { apiCreateRoom } from './rooms-fixtures';
import { testFileBytes } from '@tests/support/files';

const PART_SIZE = 1024;
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const forms = locale<typeof import('@locales/en/forms.json')>('en', 'forms');
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const PARTS = '**/api/2/rooms/*/files/*/parts/*';

let server: TestServer;
let owner: TestUser;

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  owner = await createUserInRepository(server, { username: 'pia', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR', 'ROLE_SECUFORMS'] });
});
test.afterAll(async () => {
  await server?.close();
});

async function chooseFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (await chooser).setFiles(file);
}

test('a room upload paused in the transfer centre sends nothing more and, resumed, continues from the parts sent', async ({ page }) => {
  test.setTimeout(120_000);
  const room = await apiCreateRoom(server, await apiSignIn(server, owner), 'Pause Room');
  const file = { name: 'paused.bin', mimeType: 'application/octet-stream', buffer: testFileBytes(30 * PART_SIZE + 7) };
  // The first parts go through; the rest wait on the wire until the test lets them, so the upload is surely running when paused.
  let passed = 0;
  let holding = true;
  const held: Route[] = [];
  await page.route(PARTS, async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    if (holding && passed >= 6) {
      held.push(route);
      return;
    }
    passed += 1;
    await route.continue();
  });
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Pause Room' })).toBeVisible();
  await chooseFile(page, file);
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);

  await page.getByRole('button', { name: /^File transfers/ }).click();
  const drawer = page.getByRole('dialog', { name: send.transfers.title });
  await drawer.getByRole('button', { name: fill(send.transfers.pause, { title: file.name }) }).click();
  await expect(drawer.getByText(new RegExp(`^${fill(send.transfers.state, { state: send.transferState.paused, percent: '\\d+' })}$`))).toBeVisible();
  const resume = drawer.getByRole('button', { name: fill(send.transfers.resume, { title: file.name }) });
  await expect(resume).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'transfer centre with a paused upload');
  // The parts that were held belong to the aborted attempt; let them go now (the browser dropped them).
  holding = false;
  for (const route of held.splice(0)) await route.continue().catch(() => undefined);
  const sentBefore = passed;
  // Paused means paused: no part leaves while nobody resumes (the check waits for any straggler to show).
  await expect.poll(() => passed, { timeout: 2_000 }).toBe(sentBefore);
  const onServer = await server.app.db.selectFrom('room_files').select(['state']).where('name', '=', file.name).executeTakeFirstOrThrow();
  expect(onServer.state).toBe('uploading');

  await resume.click();
  await expect(page.getByText(fill(rooms.files.toast.uploaded, { title: file.name }), { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  await expect(drawer.getByText(fill(send.transfers.item, { name: file.name, state: send.itemState.success }))).toBeVisible();
  // Resumed, not restarted: the parts the server held were not sent again.
  expect(passed).toBeLessThan(31 + sentBefore);
  expect(passed - sentBefore).toBeLessThan(31);
  await page.getByRole('button', { name: send.transfers.close }).click();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: `Download ${file.name}` }).click();
  expect(Buffer.compare(await readFile(await (await download).path()), file.buffer)).toBe(0);
});

test.describe('with a virus scanner', () => {
  const skipReason = clamdUnavailable();
  test.skip(skipReason !== null, skipReason ?? '');

  test('a file the server is still scanning says so in the transfer centre, and "done" once the scan decided', async ({ page }) => {
    test.setTimeout(120_000);
    const clamd = await startTestClamd();
    const scanning = await startTestServer({ config: { clamdAddress: clamd.socket, jobPollIntervalMs: 60_000, clamdTimeoutMs: 30_000 } });
    try {
      const user = await createUserInRepository(scanning, { username: 'sven', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
      const room = await apiCreateRoom(scanning, await apiSignIn(scanning, user), 'Scanned Room');
      await signInToInbox(page, scanning, user);
      await page.goto(`${scanning.url}/datarooms/${room.uuid}`);
      // A scanner that does not answer yet: the scan stays undecided while the test looks.
      clamd.freeze();
      await chooseFile(page, { name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('figures\n') });
      await page.getByRole('button', { name: /^File transfers/ }).click();
      const drawer = page.getByRole('dialog', { name: send.transfers.title });
      await expect(drawer.getByText(fill(send.transfers.item, { name: 'report.txt', state: send.itemState.scanning }))).toBeVisible({ timeout: 30_000 });
      await expectNoSeriousA11yViolations(page, 'transfer centre with a file being scanned');
      // The scanner answers: the finished transfer follows the scan and no longer says "scanning".
      clamd.thaw();
      await expect(drawer.getByText(fill(send.transfers.item, { name: 'report.txt', state: send.itemState.success }))).toBeVisible({ timeout: 60_000 });
    } finally {
      clamd.thaw();
      await scanning.close();
      await clamd.dispose();
    }
  });
});

test('the public form page shows the allowed sizes and names the limit of a file that is too large', async ({ browser }) => {
  const session = await apiSignIn(server, owner);
  await setSettingsAsAdmin(server, { [DELIVERY_SETTING_KEYS.maxUploadSize]: 5 * 1024 * 1024 });
  const created = await apiCall(server, session, 'POST', '/forms', {
    name: 'Sized request',
    url: 'sized-request',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [owner.email],
    customFields: [{ name: 'Attachment', type: 'file', maxFileSizeKb: 2 }],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const form = (await created.json()) as Form;

  const visitor = await browser.newContext({ locale: 'en-GB' });
  const page = await visitor.newPage();
  await page.goto(`${server.url}/form/${form.url}`);
  await expect(page.getByText(fill(forms.public.fileLimits, { max: '2\u00a0KB', total: '5\u00a0MB' }))).toBeVisible();
  await page.getByLabel('Attachment').setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3 * 1024, 1) });
  await page.getByRole('button', { name: forms.public.submit }).click();
  await expect(page.getByRole('alert').filter({ hasText: fill(forms.public.fileTooLargeLimit, { max: '2\u00a0KB' }) })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'public form with file limits');
  await visitor.close();
});
