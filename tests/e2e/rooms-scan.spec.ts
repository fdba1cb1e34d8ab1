// The scan state in a plain data room (issue 15, SPEC §3) against a real server and a real clamd
// (tests/support/clamd.ts, as virus-scan.spec.ts): two files uploaded through the room page; the
// EICAR file turns "Blocked: virus found" by itself (the list polls while a file is scanning) and
// offers neither download nor preview; the clean one downloads with its very bytes. axe on the list.
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { clamdUnavailable, EICAR, startTestClamd, type TestClamd } from '../support/clamd';
import { startTestServer, type TestServer } from '../support/server';
import { apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';
import { apiCreateRoom } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
const skipReason = clamdUnavailable();
let clamd: TestClamd;
let server: TestServer;
let owner: TestUser;

test.skip(skipReason !== null, skipReason ?? '');

test.beforeAll(async () => {
  clamd = await startTestClamd();
  server = await startTestServer({ config: { clamdAddress: clamd.socket, jobPollIntervalMs: 200, clamdTimeoutMs: 30_000 } });
  owner = await createUserInRepository(server, { username: 'sami', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});
test.afterAll(async () => {
  await server?.close();
  await clamd?.dispose();
});

async function upload(page: Page, name: string, bytes: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (await chooser).setFiles({ name, mimeType: 'text/plain', buffer: bytes });
  await expect(page.getByRole('table', { name: rooms.files.title }).getByRole('row', { name: new RegExp(name.replace('.', '\\.')) })).toBeVisible();
}

test('a virus is blocked in the list without download or preview; a clean file downloads', async ({ page }) => {
  test.setTimeout(120_000);
  await apiCreateRoom(server, await apiSignIn(server, owner), 'Scan Room');
  await signInToInbox(page, server, owner);
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  await page.getByRole('link', { name: 'Scan Room' }).click();
  const clean = Buffer.from('quarterly figures, nothing to see here\n', 'utf8');
  await upload(page, 'clean.txt', clean);
  await upload(page, 'eicar.txt', EICAR);

  const files = page.getByRole('table', { name: rooms.files.title });
  const infected = files.getByRole('row', { name: /eicar\.txt/ });
  const fine = files.getByRole('row', { name: /clean\.txt/ });
  // No reload: the list asks again while a file is being checked.
  await expect(infected).toContainText(rooms.scan.virusDetected, { timeout: 30_000 });
  await expect(files.getByText(rooms.scan.scanning)).toHaveCount(0, { timeout: 30_000 });
  await expect(infected.getByRole('link', { name: 'Download eicar.txt' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Actions for file eicar.txt' }).click();
  await expect(page.getByRole('menuitem', { name: rooms.preview.action })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: rooms.details.action })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(fine).not.toContainText(rooms.scan.virusDetected);
  await expectNoSeriousA11yViolations(page, 'room files with a blocked file');

  const download = page.waitForEvent('download');
  await fine.getByRole('link', { name: 'Download clean.txt' }).click();
  expect(Buffer.compare(await readFile(await (await download).path()), clean)).toBe(0);
});
