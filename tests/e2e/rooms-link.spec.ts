// Public links to a plain room's file through the web client against the real server (issue 15):
// the file menu's "Share link" makes a link, "Copy link" copies it (toast), an
// anonymous browser opens it: the landing page shows the name and size, its Download saves the file
// bit-exact (SHA-256); revoking it (after a confirmation) makes the same page say the link was
// revoked. axe on the dialog, the landing page and its message page. An unknown token's page says
// so; a link revoked while its page is open shows the message at Download instead of a raw answer.
// Issue 28: the URL holds the token in its fragment, the page's calls send it in a header; a link
// of the older form (`/room-link/{token}`) still opens, its address rewritten to the fragment form.
// Issue 32 §2: a link with a password, a date from the calendar and a download limit: the visitor
// enters the password, downloads until the limit, then the page says the link is used up; a link
// whose date the server's links' clock has passed (`startTestServer({ clock })`) says it expired,
// at Download on the open page and when opened again.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { ROOM_LINK_PATHS, type CreatedRoomLink } from '@shared/contract/room-links';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';
import { testFileBytes } from '@tests/support/files';

const links = locale<typeof import('@locales/en/roomLinks.json')>('en', 'roomLinks');
/** How far the server's links' clock runs ahead of real time (no sleeps: the date passes when the test says). */
let clockShift = 0;
const ctx = serverPerFile('file', { clock: () => Date.now() + clockShift });
let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'lina', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('the owner shares a file by link, an anonymous browser downloads it, the revoked link says so', async ({ page, browser, context }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Link Room');
  const bytes = new Uint8Array(testFileBytes(200_000));
  await apiUploadRoomFile(server, session, room.uuid, null, 'handout.bin', bytes, 'application/octet-stream');

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Link Room' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for file handout.bin' }).click();
  await page.getByRole('menuitem', { name: links.action }).click();
  const dialog = page.getByRole('dialog', { name: fill(links.title, { name: 'handout.bin' }) });
  await expect(dialog.getByText(links.empty)).toBeVisible();
  await dialog.getByRole('button', { name: links.create }).click();
  const urlField = dialog.getByRole('textbox', { name: links.url });
  // The token is in the fragment (issue 28): no request the browser makes carries it in a URL.
  await expect(urlField).toHaveValue(/\/room-link#token=[A-Za-z0-9_-]{43}$/);
  const url = await urlField.inputValue();
  expect(url.startsWith(`${server.url}/room-link#token=`)).toBe(true);
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
  await expect(dialog.getByRole('link', { name: links.openLink })).toHaveAttribute('href', url);
  await expect(dialog.getByRole('table').getByRole('row')).toHaveCount(2);
  await expect(dialog.getByRole('table').getByRole('row').nth(1)).toContainText(links.states.active);
  await expectNoSeriousA11yViolations(page, 'share link dialog');
  await dialog.getByRole('button', { name: links.copy }).click();
  await expect(toast(page, links.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // Someone without an account: a fresh browser context opens the URL: the landing page, then Download.
  const anonymous = await browser.newContext({ acceptDownloads: true });
  const visitor = await anonymous.newPage();
  const urls: string[] = [];
  visitor.on('request', (request) => void urls.push(request.url()));
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { level: 1, name: links.page.title })).toBeVisible();
  await expect(visitor.getByTestId('room-link-name')).toHaveText('handout.bin');
  await expect(visitor.getByText('195.3 KB', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(visitor, 'room link landing page');
  const download = visitor.waitForEvent('download');
  await visitor.getByRole('button', { name: links.page.download }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('handout.bin');
  expect(sha256(new Uint8Array(await readFile((await saved.path())!)))).toBe(sha256(bytes));
  // The page's API calls carried the token in the header, never in a URL the server or a proxy sees.
  expect(urls.some((u) => u.endsWith(`/api/2${ROOM_LINK_PATHS.content}`))).toBe(true);
  expect(urls.filter((u) => u.includes(token) && !u.includes('#'))).toEqual([]);

  // Revoke, after the confirmation.
  await dialog.getByRole('button', { name: links.revoke }).click();
  const confirm = page.getByRole('alertdialog', { name: links.confirmTitle });
  await expect(confirm).toContainText(fill(links.confirmText, { name: 'handout.bin' }));
  await confirm.getByRole('button', { name: links.revoke }).click();
  await expect(toast(page, fill(links.revoked, { name: 'handout.bin' }))).toBeVisible();
  const reopened = page.getByRole('dialog', { name: fill(links.title, { name: 'handout.bin' }) });
  await expect(reopened.getByRole('table').getByRole('row').nth(1)).toContainText(links.states.revoked);
  await expect(reopened.getByRole('textbox', { name: links.url })).toHaveCount(0);

  // Opened anew (the same address with only a fragment would not load the page again).
  await visitor.goto('about:blank');
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { level: 1, name: links.page.unavailableTitle })).toBeVisible();
  await expect(visitor.getByText(links.page.errors.linkRevoked)).toBeVisible();
  await expectNoSeriousA11yViolations(visitor, 'room link message page');
  // A link handed out before (token as the path's last segment) still opens; the page moves the token into the fragment.
  await visitor.goto(`${server.url}/room-link/${token}`);
  await expect(visitor.getByText(links.page.errors.linkRevoked)).toBeVisible();
  expect(visitor.url()).toBe(url);
  await anonymous.close();
});

test('the landing page of an unknown link says so; a link revoked, or whose date passed, while its page is open says so at Download, and saves nothing', async ({ browser }) => {
  const { server } = ctx;
  const anonymous = await browser.newContext({ acceptDownloads: true });
  const visitor = await anonymous.newPage();
  await visitor.goto(`${server.url}/room-link#token=${'A'.repeat(43)}`);
  await expect(visitor.getByRole('heading', { level: 1, name: links.page.unavailableTitle })).toBeVisible();
  await expect(visitor.getByText(links.page.errors.linkInvalid)).toBeVisible();

  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Late Room');
  const file = await apiUploadRoomFile(server, session, room.uuid, null, 'late.txt', new TextEncoder().encode('soon gone'), 'text/plain');
  const made = await apiCall(server, session, 'POST', ROOM_LINK_PATHS.links(room.uuid, file.uuid), { expiresInDays: 1 });
  expect(made.status).toBe(201);
  const link = (await made.json()) as CreatedRoomLink;
  await visitor.goto(link.url);
  await expect(visitor.getByTestId('room-link-name')).toHaveText('late.txt');
  expect((await apiCall(server, session, 'DELETE', ROOM_LINK_PATHS.link(room.uuid, file.uuid, link.uuid))).status).toBe(204);
  let downloads = 0;
  visitor.on('download', () => void downloads++);
  await visitor.getByRole('button', { name: links.page.download }).click();
  await expect(visitor.getByText(links.page.errors.linkRevoked)).toBeVisible();
  expect(visitor.url()).toBe(link.url);
  expect(downloads).toBe(0);

  // Issue 32 §3: a link valid for a day, opened; then the server's clock passes its date.
  const dated = (await (await apiCall(server, session, 'POST', ROOM_LINK_PATHS.links(room.uuid, file.uuid), { expiresInDays: 1 })).json()) as CreatedRoomLink;
  // A page of its own (the same page would take the new token as a mere change of the fragment).
  const late = await anonymous.newPage();
  late.on('download', () => void downloads++);
  await late.goto(dated.url);
  await expect(late.getByTestId('room-link-name')).toHaveText('late.txt');
  try {
    clockShift = dated.expiresAt + 1 - Date.now();
    await late.getByRole('button', { name: links.page.download }).click();
    await expect(late.getByText(links.page.errors.linkExpired)).toBeVisible();
    // Opened again: the page says it at once, with nothing of the file.
    await late.reload();
    await expect(late.getByRole('heading', { level: 1, name: links.page.unavailableTitle })).toBeVisible();
    await expect(late.getByText(links.page.errors.linkExpired)).toBeVisible();
    await expect(late.getByTestId('room-link-name')).toHaveCount(0);
    expect(downloads).toBe(0);
    await expectNoSeriousA11yViolations(late, 'room link expired page');
  } finally {
    clockShift = 0;
  }
  await anonymous.close();
});

test('a link with a password, a calendar date and a download limit: the visitor enters the password, downloads, and the used-up link says so', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Guarded Room');
  const bytes = new Uint8Array(testFileBytes(50_000));
  const file = await apiUploadRoomFile(server, session, room.uuid, null, 'guarded.bin', bytes, 'application/octet-stream');

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: 'Actions for file guarded.bin' }).click();
  await page.getByRole('menuitem', { name: links.action }).click();
  const dialog = page.getByRole('dialog', { name: fill(links.title, { name: 'guarded.bin' }) });
  await expect(dialog.getByText(links.empty)).toBeVisible();
  // The calendar opens on the default day (in 7 days); three days on with the keyboard, chosen with Enter.
  await dialog.getByRole('combobox', { name: links.expiryDate }).click();
  const calendar = page.getByRole('dialog').filter({ has: page.getByRole('grid') });
  await expect(calendar).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'link expiry calendar');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(calendar).toHaveCount(0);
  await dialog.getByLabel(links.password).fill('Sesam-öffne-dich');
  await dialog.getByLabel(links.limit).fill('1');
  await dialog.getByRole('button', { name: links.create }).click();
  const urlField = dialog.getByRole('textbox', { name: links.url });
  await expect(urlField).toHaveValue(/\/room-link#token=/);
  const url = await urlField.inputValue();
  await expect(dialog.getByRole('table').getByRole('row').nth(1)).toContainText(fill(links.downloadsOfLimit, { done: 0, limit: 1 }));
  await expectNoSeriousA11yViolations(page, 'share link dialog with password and limit');
  const listed = (await (await apiCall(server, session, 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid))).json()) as { links: CreatedRoomLink[] };
  const today = new Date();
  expect(listed.links[0]).toMatchObject({ passwordProtected: true, maxDownloads: 1 });
  expect(listed.links[0]!.expiresAt).toBe(new Date(today.getFullYear(), today.getMonth(), today.getDate() + 10, 23, 59, 59, 999).getTime());

  const anonymous = await browser.newContext({ acceptDownloads: true });
  const visitor = await anonymous.newPage();
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { level: 1, name: links.page.passwordTitle })).toBeVisible();
  await expect(visitor.getByTestId('room-link-name')).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitor, 'room link password page');
  await visitor.getByLabel(links.page.password).fill('wrong-password');
  await visitor.getByRole('button', { name: links.page.unlock }).click();
  await expect(visitor.getByText(links.page.errors.passwordWrong)).toBeVisible();
  await visitor.getByLabel(links.page.password).fill('Sesam-öffne-dich');
  await visitor.getByRole('button', { name: links.page.unlock }).click();
  await expect(visitor.getByTestId('room-link-name')).toHaveText('guarded.bin');
  await expect(visitor.getByTestId('room-link-downloads-left')).toHaveText('1');
  const download = visitor.waitForEvent('download');
  await visitor.getByRole('button', { name: links.page.download }).click();
  const saved = await download;
  expect(sha256(new Uint8Array(await readFile((await saved.path())!)))).toBe(sha256(bytes));
  // The one download allowed is spent: the next try shows the used-up page.
  // Counted once the server has sent the last byte (just after the browser has it).
  await expect
    .poll(async () => ((await (await apiCall(server, session, 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid))).json()) as { links: CreatedRoomLink[] }).links[0]!.downloads)
    .toBe(1);
  // The page asks again once the download is done, and says so without another click.
  await expect(visitor.getByRole('heading', { level: 1, name: links.page.unavailableTitle })).toBeVisible();
  await expect(visitor.getByText(links.page.errors.linkUsedUp)).toBeVisible();
  await expectNoSeriousA11yViolations(visitor, 'room link used-up page');
  await anonymous.close();
});
