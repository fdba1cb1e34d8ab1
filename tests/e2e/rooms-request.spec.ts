// Data-room requests through the web client against the real server (issue 15 §2): the owner asks
// an unregistered address for files for a folder (breadcrumb menu › Request files); the spec reads
// the mail, signs up on the request's signup page, sends two files on the send page's dar variant
// (with a `back` value: the page returns there); the owner finds both files in the folder and
// downloads one (SHA-256 equal), and the requests list says "Answered". A registered address
// signs in from the mail link, sees a forbidden file flagged before sending (the normal send page's
// checks), and sends at level 2; a foreign `back` is ignored. axe on every new screen.
import { expect, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { ROOM_REQUEST_TOKEN_HEADER } from '@shared/contract/link-token';
import { ROOM_REQUEST_PATHS } from '@shared/contract/room-requests';
import { apiCall, apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, signInToInbox, submitLogin, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const requests = locale<typeof import('@locales/en/roomRequests.json')>('en', 'roomRequests');
const en = { ...enBase, rooms, requests };
const ctx = {} as { server: TestServer };
let owner: TestUser;
const outsider = 'vendor@outside.test';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ctx.server = await startTestServer({ config: { uploadPartSize: 16 * 1024 } });
  owner = await createUserInRepository(ctx.server, { username: 'rita', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  // A display name: the requests list shows it, the address below it (issue 32).
  await ctx.server.app.db.updateTable('users').set({ first_name: 'Rita', last_name: 'Requester' }).where('id', '=', owner.id).execute();
});

test.afterAll(async () => {
  await ctx.server?.close();
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('an unregistered address is asked for files, signs up, sends two; they land in the folder bit-exact', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Supplier Room');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Certificates');

  // The owner asks from the folder's breadcrumb menu.
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
  await page.getByRole('button', { name: rooms.crumbMenu.label.replace('{{name}}', 'Certificates') }).click();
  await page.getByRole('menuitem', { name: requests.request.action }).click();
  const dialog = page.getByRole('dialog', { name: 'Request files for “Supplier Room / Certificates”' });
  await dialog.getByRole('textbox', { name: requests.request.email }).fill(outsider);
  await dialog.getByRole('textbox', { name: requests.request.message }).fill('Please send the ISO certificates');
  await expectNoSeriousA11yViolations(page, 'request files dialog');
  await dialog.getByRole('button', { name: requests.request.submit }).click();
  await expect(toast(page, `Request sent to ${outsider} for “Supplier Room / Certificates”.`)).toBeVisible();

  // The mail: an unregistered address signs up first.
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(outsider)(m) && m.subject.includes('asks you for files'));
  expect(mail.text).toContain('Please send the ISO certificates');
  const link = extractLink(mail, '/auth/delivery-signup-dar');
  // `back`: where the send page returns afterwards (the web's own navigation, not part of the mail).
  link.searchParams.set('back', '/secumails/outbox');

  const vendorContext = await browser.newContext();
  const vendor = await vendorContext.newPage();
  // The token is in the fragment (issue 28).
  expect(link.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
  await vendor.goto(`${server.url}${link.pathname}${link.search}${link.hash}`);
  await expect(vendor.getByRole('heading', { level: 1, name: requests.signup.title })).toBeVisible();
  await expect(vendor.getByLabel(en.external.signup.email)).toHaveValue(outsider);
  await expect(vendor.getByText(/asks you for files for the data room “Supplier Room \/ Certificates”/)).toBeVisible();
  await expectNoSeriousA11yViolations(vendor, 'request signup');
  await vendor.getByLabel(en.external.signup.firstName).fill('Vera');
  await vendor.getByRole('textbox', { name: en.common.password.new, exact: true }).fill('Outside-Passw0rd-1');
  await vendor.getByLabel(en.common.password.confirm).fill('Outside-Passw0rd-1');
  await vendor.getByRole('button', { name: en.external.signup.submit }).click();

  // Signed in: the send page's dar variant, the requester fixed as the recipient.
  await expect(vendor).toHaveURL(/\/secumails\/send\?back=%2Fsecumails%2Foutbox#dar=[A-Za-z0-9_-]+$/);
  await expect(vendor.getByRole('heading', { level: 1, name: requests.send.title })).toBeVisible();
  await expect(vendor.getByText(/asks you for files for the data room “Supplier Room \/ Certificates”/)).toBeVisible();
  await expect(vendor.getByText(`Rita Requester <${owner.email}>`, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(vendor, 'dar send page');
  const first = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 13 + 5) % 256));
  const second = Buffer.from('ISO 9001 certificate, valid until 2028\n');
  await vendor.locator('input[type=file]').setInputFiles([
    { name: 'iso-9001.pdf', mimeType: 'application/pdf', buffer: first },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: second },
  ]);
  await vendor.getByRole('button', { name: requests.send.submit }).click();
  // `back` was a same-origin path: the page returns there.
  await expect(vendor).toHaveURL(/\/secumails\/outbox$/);

  // The copy runs as a job after the send; then the files are in the folder.
  await server.app.jobs.whenIdle();
  await page.reload();
  const files = page.getByRole('table', { name: rooms.files.title });
  await expect(files.getByRole('row', { name: /iso-9001\.pdf/ })).toBeVisible();
  await expect(files.getByRole('row', { name: /notes\.txt/ })).toContainText(outsider);
  const download = page.waitForEvent('download');
  await files.getByRole('link', { name: 'Download iso-9001.pdf' }).click();
  expect(sha256(await readFile(await (await download).path()))).toBe(sha256(first));

  // The owners' list of requests: answered, with the two files.
  await page.getByRole('button', { name: requests.list.show }).click();
  const list = page.getByRole('table', { name: requests.list.title });
  await expect(list.getByRole('row', { name: new RegExp(outsider.replace('.', '\\.')) })).toContainText('Answered (2 files)');
  // "Requested by": the owner's name, her address on the line below (and as its title).
  await expect(list.getByRole('row', { name: new RegExp(outsider.replace('.', '\\.')) }).getByTitle(owner.email)).toHaveText(`Rita Requester${owner.email}`);
  await expectNoSeriousA11yViolations(page, 'room requests list');

  // The link is spent: opening it again says so.
  // A link of the older form (token in the query) still opens; the page moves the token into the fragment.
  const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
  await vendor.goto(`${server.url}/secumails/send?dar=${token}`);
  await expect(vendor.getByText(requests.send.gone)).toBeVisible();
  await expect(vendor).toHaveURL(`${server.url}/secumails/send#dar=${token}`);
  await vendorContext.close();
});

test('a registered address signs in from the mail link, a forbidden file is flagged before sending, sends at level 2; a foreign `back` is ignored (send success page)', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const partner = await createUserInRepository(server, { username: 'paula' });
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Partner Room');
  const created = await apiCall(server, session, 'POST', ROOM_REQUEST_PATHS.requests(room.uuid), { email: partner.email, message: '' });
  expect(created.status).toBe(201);
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(partner.email)(m) && m.subject.includes('asks you for files'));
  const link = extractLink(mail, '/secumails/send');
  link.searchParams.set('back', 'https://evil.example/');

  // Signed out: the sign-in continues to the dar page (the fragment's token kept through the sign-in).
  await page.goto(`${server.url}${link.pathname}${link.search}${link.hash}`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await submitLogin(page, partner);
  await expect(page.getByRole('heading', { level: 1, name: requests.send.title })).toBeVisible();
  await expect(page.getByText(/asks you for files for the data room “Partner Room”/)).toBeVisible();
  await page.getByRole('radio', { name: en.send.level.level2.title }).check();
  let drafts = 0;
  page.on('request', (request) => {
    // Counted only with the token in its header (issue 28), so a call without it fails the count below.
    const carriesToken = /^[A-Za-z0-9_-]{43}$/.test(request.headers()[ROOM_REQUEST_TOKEN_HEADER] ?? '');
    if (request.method() === 'POST' && new URL(request.url()).pathname === `/api/2${ROOM_REQUEST_PATHS.delivery}` && carriesToken) drafts += 1;
  });
  const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
  // A forbidden type is flagged as soon as it is added, as on the normal send page; Send creates nothing.
  await page.locator('input[type=file]').setInputFiles([
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ not really') },
    { name: 'offer.bin', mimeType: 'application/octet-stream', buffer: bytes },
  ]);
  const list = page.getByRole('list', { name: en.send.files.listLabel });
  const blocked = en.send.problems.blockedExtension.replace('{{extension}}', 'exe');
  await expect(list.getByRole('listitem').filter({ hasText: 'setup.exe' })).toContainText(blocked);
  await expect(list.getByRole('listitem').filter({ hasText: 'offer.bin' })).not.toContainText(blocked);
  const summary = en.send.problems.blockedFiles_one.replace('{{names}}', 'setup.exe');
  await expect(page.getByText(summary, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dar send page with a forbidden file');
  await page.getByRole('button', { name: requests.send.submit }).click();
  await expect(page.getByText(summary, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: requests.send.title })).toBeVisible();
  expect(drafts).toBe(0);
  await page.getByRole('button', { name: en.send.files.remove.replace('{{name}}', 'setup.exe') }).click();
  await expect(page.getByText(summary, { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: requests.send.submit }).click();
  await expect(page).toHaveURL(/\/secumails\/send-success$/);
  await expect(page.getByRole('heading', { level: 1, name: en.send.success.title })).toBeVisible();
  expect(drafts).toBe(1);

  await server.app.jobs.whenIdle();
  const stored = await server.app.db.selectFrom('room_files').select(['sha256', 'uploaded_by']).where('name', '=', 'offer.bin').executeTakeFirstOrThrow();
  expect(stored).toEqual({ sha256: sha256(bytes), uploaded_by: partner.id });
  const delivery = await server.app.db.selectFrom('deliveries').select('security_level').where('subject', '=', 'Partner Room').executeTakeFirstOrThrow();
  expect(delivery.security_level).toBe(SECURITY_LEVELS.LEVEL_2);
});
