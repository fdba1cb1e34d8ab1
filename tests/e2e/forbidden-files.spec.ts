// Issue 13, item 7: forbidden file types are marked in the send page's file list as soon as they
// are added, with the reason, by the same rule the server applies (shared/contract/file-policy.ts,
// on `npm start` defaults: exe, bat, … are forbidden). Sending is refused before any upload, and
// the message at the attachments names the offending rows; removing them lets the delivery go out.
// An extension the administrator adds in the browser is marked on the sender's next visit.
import { randomBytes } from 'node:crypto';
import { apiCall, apiSignIn, en, expect, expectNoSeriousA11yViolations, locale, openSendPage, pickFiles, recipientsInput, serverPerFile, signInToInbox, test, apiCreateAccount, screenshotsAtWidths } from './fixtures';
import { testFileBytes } from '@tests/support/files';

const send = en.send;
const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const alice = { email: 'alice.files@example.test', password: 'Good-Passw0rd-e2e' };
const bob = { email: 'bob.files@example.test', password: 'Good-Passw0rd-e2e' };
const ctx = serverPerFile();
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const session = await apiSignIn(ctx.server, ctx.server.admin);
  for (const account of [alice, bob]) {
    await apiCreateAccount(ctx.server, session, { ...account, firstName: 'Test', lastName: 'User' });
  }
});

const blockedText = (extension: string) => send.problems.blockedExtension.replace('{{extension}}', extension);

test('forbidden files are marked in their row at once, Send names them and uploads nothing; without them it goes out', async ({ page }) => {
  const { server } = ctx;
  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  let creates = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/2/deliveries') creates += 1;
  });
  await recipientsInput(page).fill(`${bob.email},`);
  await page.getByRole('textbox', { name: send.subject.label }).fill('Tools');
  await pickFiles(page, [
    { name: 'setup.exe', bytes: randomBytes(40) },
    { name: 'Report.PDF.EXE', bytes: randomBytes(40) },
    { name: 'notes.txt', bytes: testFileBytes(40) },
    { name: 'tool.bat', bytes: randomBytes(40) },
  ]);

  // Before any Send: each forbidden row says why; the allowed one does not.
  const list = page.getByRole('list', { name: send.files.listLabel });
  const row = (name: string) => list.getByRole('listitem').filter({ hasText: name });
  await expect(row('setup.exe')).toContainText(blockedText('exe'));
  await expect(row('Report.PDF.EXE')).toContainText(blockedText('exe'));
  await expect(row('tool.bat')).toContainText(blockedText('bat'));
  await expect(row('notes.txt')).not.toContainText('Forbidden');
  const summary = send.problems.blockedFiles_other.replace('{{names}}', 'setup.exe, Report.PDF.EXE, tool.bat');
  await expect(page.getByText(summary, { exact: true })).toBeVisible();
  // The reason is in the error colour of the theme.
  const reasonColour = await row('tool.bat').getByText(blockedText('bat')).evaluate((element) => getComputedStyle(element).color);
  expect(reasonColour).not.toBe(await row('tool.bat').getByText('tool.bat', { exact: true }).evaluate((element) => getComputedStyle(element).color));
  await screenshotsAtWidths(page, 'polish-7-forbidden');
  await expectNoSeriousA11yViolations(page, 'send page with forbidden files');

  // Send: refused in the page (no draft is created), the attachments field names the rows.
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: send.fixProblems_other.replace('{{count}}', '3') })).toBeVisible();
  await expect(page.getByText(summary, { exact: true })).toBeVisible();
  expect(creates).toBe(0);

  // Removing one leaves the others named; removing all clears the messages and sends.
  await page.getByRole('button', { name: send.files.remove.replace('{{name}}', 'setup.exe') }).click();
  await expect(page.getByText(send.problems.blockedFiles_other.replace('{{names}}', 'Report.PDF.EXE, tool.bat'), { exact: true })).toBeVisible();
  for (const name of ['Report.PDF.EXE', 'tool.bat']) await page.getByRole('button', { name: send.files.remove.replace('{{name}}', name) }).click();
  await expect(page.getByText(/Forbidden file type|forbidden file/)).toHaveCount(0);
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: send.success.title })).toBeVisible();
  expect(creates).toBe(1);
});

test('an extension the administrator forbids in the browser is marked on the sender’s send page', async ({ page, browser }) => {
  const { server } = ctx;
  // The administrator adds "pdf" on Secure mails › General.
  const adminPage = await (await browser.newContext()).newPage();
  await signInToInbox(adminPage, server, server.admin);
  await adminPage.goto(`${server.url}/admin/secure-mails`);
  const extensions = adminPage.getByRole('textbox', { name: admin.secureMails.files.extensions });
  await expect(extensions).toHaveValue(/exe/);
  await extensions.fill(`${await extensions.inputValue()}\npdf`);
  await adminPage.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(adminPage.locator('.fui-ToastTitle').filter({ hasText: admin.settingsForm.saved })).toBeVisible();
  await adminPage.context().close();

  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  await pickFiles(page, [{ name: 'Quarterly.Pdf', bytes: testFileBytes(10) }]);
  await expect(page.getByRole('list', { name: send.files.listLabel }).getByRole('listitem')).toContainText(blockedText('pdf'));
  await expect(page.getByText(send.problems.blockedFiles_one.replace('{{names}}', 'Quarterly.Pdf'), { exact: true })).toBeVisible();

  // The server applies the same rule to the same name.
  const session = await apiSignIn(server, alice);
  const draft = await apiCall(server, session, 'POST', '/deliveries', { recipients: [bob.email], subject: 'Server check', securityLevel: 0, language: 'en' });
  const { deliveryUuid } = (await draft.json()) as { deliveryUuid: string };
  const refused = await apiCall(server, session, 'POST', `/deliveries/${deliveryUuid}/files`, { name: 'Quarterly.Pdf', size: 10, mimeType: 'application/pdf' });
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { error: string; metadata: unknown }).metadata).toEqual({ name: 'Quarterly.Pdf', extension: 'pdf', mimeType: 'application/pdf' });
});
