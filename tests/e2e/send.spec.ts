// The send page and the file transfer centre against the real server: a sender fills the form in
// the browser (recipient chips, files by picker and by drag and drop), the real upload engine
// sends in small parts, mails land in the server's mailbox folder, and the recipients download
// the same bytes (SHA-256). Also: every §5 rule at its field, §8 refusals from the server (blocked
// extension, banned recipient, the not-yet-available levels 3/4), progress to 100, cancel and
// retry resuming the same draft, the transfer centre keeping a transfer across navigation, axe.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { SETTING_KEYS } from '@shared/contract/settings';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import {
  apiCall,
  apiSignIn,
  dropFiles,
  en,
  expectNoSeriousA11yViolations,
  locale,
  openSendPage,
  pasteRecipients,
  pickFiles,
  recipientsInput,
  setSettingsAsAdmin,
  signInToInbox,
  test,
} from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { testFileBytes } from '@tests/support/files';

/** Small parts so a few KiB make several (the config minimum). */
const PART_SIZE = 1024;
const PASSWORD = 'Good-Passw0rd-e2e';
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');

let server: TestServer;
const alice = { email: 'alice.sender@example.test', password: PASSWORD };
const bob = { email: 'bob.internal@example.test', password: PASSWORD };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await apiSignIn(server, server.admin);
  for (const [account, firstName] of [
    [alice, 'Alice'],
    [bob, 'Bob'],
  ] as const) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, firstName, lastName: 'Test', language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
});
test.afterAll(async () => {
  await server?.close();
});

async function downloadedSha256(page: Page, fileName: string): Promise<string> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByLabel(`Download ${fileName}`).click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  return sha256(await readFile(await download.path()));
}

const fieldError = (page: Page, text: string) => page.getByText(text, { exact: true });

for (const level of [
  { name: send.level.level1.title, value: 1 },
  { name: send.level.level2.title, value: 2 },
]) {
  test(`level ${level.value}: two files (picker + drag and drop) to an internal and an external recipient, downloaded bit-exact`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    const external = `erin.level${level.value}@example.test`;
    const subject = `Level ${level.value} reports`;
    const picked = { name: `picked-${level.value}.bin`, bytes: testFileBytes(3 * PART_SIZE + 11) };
    const dropped = { name: `dropped-${level.value}.bin`, bytes: testFileBytes(2 * PART_SIZE + 7) };

    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    await expectNoSeriousA11yViolations(page, 'send page');
    // The minimal level is preselected; levels are those the send config allows.
    await expect(page.getByRole('radio', { name: send.level.level1.title })).toBeChecked();

    // Chips: typed + Enter, and a paste of one more.
    await recipientsInput(page).fill(bob.email);
    await recipientsInput(page).press('Enter');
    // A paste of several (one already a chip: no duplicate).
    await pasteRecipients(page, `${external},\n${bob.email}`);
    await expect(page.getByRole('button', { name: `Remove ${bob.email}` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Remove ${external}` })).toBeVisible();
    await page.getByRole('textbox', { name: send.subject.label }).fill(subject);
    await page.getByRole('textbox', { name: send.body.label }).fill(`Here are the ${subject}.`);
    await pickFiles(page, [picked]);
    await dropFiles(page, [dropped]);
    const list = page.getByRole('list', { name: send.files.listLabel });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list).toContainText(picked.name);
    await expect(list).toContainText('3 KB');
    await page.getByRole('radio', { name: level.name }).check();
    // The validity placeholder is 90 days (SPEC §9).
    await expect(page.getByRole('spinbutton', { name: send.validity.label })).toHaveAttribute('placeholder', '90');
    await expectNoSeriousA11yViolations(page, 'filled send page');

    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: send.success.title })).toBeVisible();
    await expect(page).toHaveURL(/\/secumails\/send-success$/);
    await expect(page.getByRole('status').filter({ hasText: subject })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'send success page');

    // The internal recipient: mail, then inbox, the same bytes.
    const bobMail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(bob.email)(m) && m.subject.includes(subject));
    const bobPage = await (await browser.newContext()).newPage();
    await signInToInbox(bobPage, server, bob);
    if (level.value === 1) await openLevel1Link(bobPage, extractLink(bobMail, '/secumails/'), bob.email);
    else await bobPage.goto(extractLink(bobMail, '/secumails/inbox/').toString());
    await expect(bobPage.getByRole('heading', { name: subject })).toBeVisible();
    expect(await downloadedSha256(bobPage, picked.name)).toBe(sha256(picked.bytes));
    expect(await downloadedSha256(bobPage, dropped.name)).toBe(sha256(dropped.bytes));
    await bobPage.context().close();

    // The external recipient is mailed too; at level 1 the link opens the delivery anonymously.
    const erinMail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(external)(m) && m.subject.includes(subject));
    if (level.value === 1) {
      const erinPage = await (await browser.newContext()).newPage();
      await openLevel1Link(erinPage, extractLink(erinMail, '/secumails/'), external);
      await expect(erinPage.getByRole('heading', { name: subject })).toBeVisible();
      expect(await downloadedSha256(erinPage, picked.name)).toBe(sha256(picked.bytes));
      expect(await downloadedSha256(erinPage, dropped.name)).toBe(sha256(dropped.bytes));
      await erinPage.context().close();
    } else {
      expect(erinMail.text).toContain('/secumails/');
    }
  });
}

/** A level-1 mail link leads to the email prompt of the share first (tests/e2e/external-recipient.spec.ts). */
async function openLevel1Link(page: Page, link: URL, email: string) {
  await page.goto(link.toString());
  await page.getByLabel(en.external.emailPrompt.email).fill(email);
  await page.getByRole('button', { name: en.external.emailPrompt.submit }).click();
}

test('Reply from the inbox detail prefills the send page', async ({ page }) => {
  await signInToInbox(page, server, bob);
  await page.getByRole('link', { name: 'Level 2 reports' }).click();
  await page.getByRole('link', { name: 'Reply' }).click();
  await expect(page.getByRole('heading', { level: 1, name: send.title })).toBeVisible();
  await expect(page.getByRole('button', { name: `Remove ${alice.email}` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: send.subject.label })).toHaveValue('Re: Level 2 reports');
});

test('every §5 rule shows its message at its field before anything is sent', async ({ page }) => {
  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  const posts: string[] = [];
  page.on('request', (request) => {
    // The chip warnings' look-up (recipient-status) sends nothing; every other POST would.
    if (request.method() === 'POST' && request.url().includes('/api/2/deliveries') && !request.url().includes('/deliveries/recipient-status')) posts.push(request.url());
  });

  // Nothing filled: recipients and subject required, a file or a message required.
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(page.getByText(send.problems.recipientsRequired, { exact: true })).toHaveCount(2);
  await expect(fieldError(page, send.problems.filesOrMessageRequired)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Please correct the 3 marked problems' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'send page with problems');

  // Invalid address: the chip warning and the field message.
  await recipientsInput(page).fill('not-an-address,');
  await expect(page.getByText(send.recipients.invalidWarning.replace('{{address}}', 'not-an-address'))).toBeVisible();
  await expect(fieldError(page, 'Not a valid email address: not-an-address')).toBeVisible();
  await page.getByRole('button', { name: 'Remove not-an-address' }).click();
  await recipientsInput(page).fill(bob.email);
  await recipientsInput(page).press('Enter');

  // Too long subject and body.
  await page.getByRole('textbox', { name: send.subject.label }).fill('s'.repeat(256));
  await expect(fieldError(page, 'The subject may have at most 255 characters.')).toBeVisible();
  await page.getByRole('textbox', { name: send.subject.label }).fill('Rules');
  await page.getByRole('textbox', { name: send.body.label }).fill('b'.repeat(100_001));
  await expect(fieldError(page, 'The message may have at most 100000 characters.')).toBeVisible();
  await page.getByRole('textbox', { name: send.body.label }).fill('');

  // Validity outside the send config's bounds.
  const validity = page.getByRole('spinbutton', { name: send.validity.label });
  await validity.fill('0');
  await expect(page.getByText(/^Enter a number of days between 1 and \d+\.$/)).toBeVisible();
  await validity.fill('');

  // Files: 0 bytes, duplicate names, invalid characters (the file rules show as soon as files are added).
  await pickFiles(page, [
    { name: 'empty.txt', bytes: new Uint8Array(0) },
    { name: 'twice.txt', bytes: testFileBytes(10) },
    { name: 'bad:name.txt', bytes: testFileBytes(10) },
  ]);
  await dropFiles(page, [{ name: 'TWICE.txt', bytes: testFileBytes(12) }]);
  await expect(page.getByText('empty.txt is empty (0 bytes) and cannot be sent.', { exact: false })).toBeVisible();
  await expect(page.getByText('TWICE.txt is attached twice. File names must be unique.', { exact: false })).toBeVisible();
  await expect(page.getByText(/bad:name\.txt contains characters that are not allowed in file names/)).toBeVisible();
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  expect(posts, 'no call while the form has problems').toEqual([]);

  // Removing the bad files clears the messages.
  for (const name of ['empty.txt', 'TWICE.txt', 'bad:name.txt']) await page.getByRole('button', { name: `Remove ${name}`, exact: true }).click();
  await expect(page.getByText(/cannot be sent|attached twice|invalid characters/)).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Please correct' })).toHaveCount(0);
});

test('server refusals show their §8 message: blocked extension, banned recipient', async ({ page }) => {
  // exe is allowed while the page loads (the page would mark it at once: forbidden-files.spec.ts) and
  // forbidden before Send: the server's own check refuses it.
  await setSettingsAsAdmin(server, { [DELIVERY_SETTING_KEYS.blockedExtensions]: '', [DELIVERY_SETTING_KEYS.bannedRecipients]: '@banned.example' });
  try {
    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    let creates = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/2/deliveries') creates += 1;
    });
    await recipientsInput(page).fill(`${bob.email},`);
    await page.getByRole('textbox', { name: send.subject.label }).fill('Refused');
    await pickFiles(page, [{ name: 'tool.exe', bytes: randomBytes(50) }]);
    await setSettingsAsAdmin(server, { [DELIVERY_SETTING_KEYS.blockedExtensions]: 'exe' });
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'tool.exe is blocked by company policy.' })).toBeVisible();
    // The transfer centre shows the failure too; the page stays editable.
    await page.getByRole('button', { name: 'Remove tool.exe' }).click();
    await pickFiles(page, [{ name: 'fine.txt', bytes: testFileBytes(50) }]);

    await recipientsInput(page).fill('someone@banned.example,');
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'These recipients are not allowed: someone@banned.example' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'send page with a refusal');

    // Corrected, it goes out — and every attempt used the one draft the first created.
    await page.getByRole('button', { name: 'Remove someone@banned.example' }).click();
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: send.success.title })).toBeVisible();
    expect(creates, 'one draft for the three attempts').toBe(1);
  } finally {
    await setSettingsAsAdmin(server, { [DELIVERY_SETTING_KEYS.blockedExtensions]: '', [DELIVERY_SETTING_KEYS.bannedRecipients]: '' });
  }
});

test('only the levels the send config allows are offered; none allowed is a message', async ({ page }) => {
  await setSettingsAsAdmin(server, { [SETTING_KEYS.allowSecurityLevel1]: false });
  try {
    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    await expect(page.getByRole('radio', { name: send.level.level1.title })).toHaveCount(0);
    await expect(page.getByRole('radio', { name: send.level.level2.title })).toBeChecked();
    await setSettingsAsAdmin(server, {
      [SETTING_KEYS.allowSecurityLevel2]: false,
      [SETTING_KEYS.allowSecurityLevel3]: false,
      [SETTING_KEYS.allowSecurityLevel4]: false,
    });
    await page.reload();
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(fieldError(page, send.problems.noSecurityLevelAllowed)).toBeVisible();
  } finally {
    await setSettingsAsAdmin(server, {
      [SETTING_KEYS.allowSecurityLevel1]: true,
      [SETTING_KEYS.allowSecurityLevel2]: true,
      [SETTING_KEYS.allowSecurityLevel3]: true,
      [SETTING_KEYS.allowSecurityLevel4]: true,
    });
  }
});

test('progress reaches 100; cancel keeps the parts and retry resumes the same draft; the transfer centre keeps it across pages', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const big = { name: 'big.bin', bytes: testFileBytes(24 * PART_SIZE + 3) };
  const subject = 'Resumed upload';
  // The first parts go through; later ones are held until the test has cancelled (the real
  // server answers every part that is let through).
  const putsBefore = new Set<number>();
  const putsAfter: number[] = [];
  let cancelled = false;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let passed = 0;
  await page.route('**/api/2/deliveries/*/files/*/parts/*', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    const index = Number(new URL(route.request().url()).pathname.split('/').pop());
    if (cancelled) putsAfter.push(index);
    else if (++passed > 6) await released;
    // A held request may have been aborted by the cancel meanwhile.
    await route.continue().catch(() => undefined);
  });
  page.on('response', (response) => {
    const match = /\/parts\/(\d+)$/.exec(new URL(response.url()).pathname);
    if (match && response.request().method() === 'PUT' && response.status() === 200 && !cancelled) putsBefore.add(Number(match[1]));
  });

  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  await recipientsInput(page).fill(`${bob.email},`);
  await page.getByRole('textbox', { name: send.subject.label }).fill(subject);
  await pickFiles(page, [big]);
  await page.getByRole('button', { name: send.submit, exact: true }).click();

  const bar = page.getByRole('progressbar', { name: send.progress.label });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(10);
  cancelled = true;
  await page.getByRole('button', { name: send.progress.cancel, exact: true }).click();
  release();
  await expect(page.getByText(send.progress.cancelled)).toBeVisible();
  const received = [...putsBefore];
  expect(received.length).toBeGreaterThan(0);
  expect(received.length).toBeLessThan(25);

  // Retry: the parts the server already has are not sent again.
  await page.getByRole('button', { name: send.progress.retry, exact: true }).click();
  // Leave the page while it runs: the transfer centre keeps it.
  await page.getByRole('tab', { name: 'Inbox' }).click();
  await page.getByRole('button', { name: /^File transfers/ }).click();
  const drawer = page.getByRole('dialog', { name: send.transfers.title });
  await expect(drawer.getByRole('listitem', { name: subject })).toBeVisible();
  const rowBar = drawer.getByRole('progressbar', { name: `Progress of ${subject}` });
  await expect(rowBar).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
  await expect(drawer.getByText('Done: 100 %')).toBeVisible();
  await expect(page.locator('.fui-ToastTitle', { hasText: `“${subject}” was sent.` })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'transfer centre');
  for (const index of received) expect(putsAfter, `part ${index} was already on the server`).not.toContain(index);

  // The recipient gets exactly the bytes.
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(bob.email)(m) && m.subject.includes(subject));
  const bobPage = await (await browser.newContext()).newPage();
  await signInToInbox(bobPage, server, bob);
  await openLevel1Link(bobPage, extractLink(mail, '/secumails/'), bob.email);
  expect(await downloadedSha256(bobPage, big.name)).toBe(sha256(big.bytes));
  await bobPage.context().close();
});

test('closing the tab while a transfer runs asks first', async ({ page }) => {
  await page.route('**/api/2/deliveries/*/files/*/parts/*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return route.continue();
  });
  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  await recipientsInput(page).fill(`${bob.email},`);
  await page.getByRole('textbox', { name: send.subject.label }).fill('Still running');
  await pickFiles(page, [{ name: 'slow.bin', bytes: testFileBytes(20 * PART_SIZE) }]);
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(page.getByRole('progressbar', { name: send.progress.label })).toBeVisible();
  const dialog = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const shown = await dialog;
  expect(shown.type()).toBe('beforeunload');
  await shown.dismiss();
});

test('level 3 from the send page: unlock, encrypt in the Worker, send; the sender decrypts its own copy bit-exact; the recipient waits for release', async ({ page }) => {
  test.setTimeout(180_000);
  const passphrase = 'violet-Harbor-71-quietly-jump';
  await signInToInbox(page, server, alice);
  await page.goto(`${server.url}/auth/set-secupass`);
  await page.getByLabel(/^Passphrase/).fill(passphrase);
  await page.getByLabel(/^Confirm passphrase/).fill(passphrase);
  await page.getByRole('button', { name: 'Set passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Passphrase set' })).toBeVisible({ timeout: 30_000 });

  // A full load forgets the unlocked keys: the send page must ask for the passphrase.
  await openSendPage(page, server);
  await recipientsInput(page).fill(`${bob.email},`);
  await page.getByRole('textbox', { name: send.subject.label }).fill('Encrypted');
  const secret = { name: 'secret.bin', bytes: randomBytes(3 * PART_SIZE + 7) };
  await pickFiles(page, [secret]);
  await page.getByRole('radio', { name: send.level.level3.title }).check();
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to encrypt and send' });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'send page unlock dialog');
  await dialog.getByLabel(/^Passphrase/).fill(passphrase);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: send.success.title })).toBeVisible({ timeout: 60_000 });

  // The server holds ciphertext only; bob has no passphrase yet, so he waits for the release.
  const session = await apiSignIn(server, alice);
  const sent = (await (await apiCall(server, session, 'GET', '/deliveries/sent?q=Encrypted')).json()) as { items: { deliveryUuid: string }[] };
  const deliveryUuid = sent.items[0]!.deliveryUuid;
  const detail = (await (await apiCall(server, session, 'GET', `/deliveries/${deliveryUuid}`)).json()) as {
    files: { encrypted: boolean; size: number }[];
  };
  expect(detail.files).toHaveLength(1);
  expect(detail.files[0]!.encrypted).toBe(true);
  expect(detail.files[0]!.size).toBeGreaterThan(secret.bytes.length); // header + tags

  // The sender's own copy decrypts in the browser to the same bytes (the keys are still unlocked in this page).
  await page.goto(`${server.url}/secumails/outbox/${deliveryUuid}`);
  await expect(page.getByText(en.deliveries.e2e.releaseRequiredTitle)).toBeVisible();
  // Headless Chromium has showSaveFilePicker but no dialog to answer it: take the download service worker
  // (the documented test hook of web/lib/e2e-download.ts), which ends in an ordinary browser download.
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'serviceWorker'));
  await page.getByRole('button', { name: 'Enter passphrase and decrypt' }).click();
  const unlockAgain = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
  const button = page.getByRole('button', { name: `Download ${secret.name}` });
  await Promise.race([unlockAgain.waitFor(), button.waitFor()]);
  if (await unlockAgain.isVisible()) {
    await unlockAgain.getByLabel(/^Passphrase/).fill(passphrase);
    await unlockAgain.getByRole('button', { name: 'Unlock' }).click();
  }
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click({ timeout: 30_000 })]);
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(secret.bytes));
});
