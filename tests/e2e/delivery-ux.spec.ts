// Deliveries as people meet them (issue 13), walked in Chromium against the real server: message
// bodies that read as written (no overlapping line boxes; line breaks, a 200-character word,
// right-to-left paragraphs and 10,000 characters) on the inbox, sent and external download pages;
// recipient chips that only × or Backspace/Delete remove and a click edits; level-4 subjects for
// their sender after unlocking (list, detail, release page); the unlock dialog worded for the
// action; no sideways scrolling at 400 px on every delivery screen; the open delivery refreshing
// its activity log and the lists' "Downloaded" column after a download.
// Screenshots of the screens at phone and desktop width go to $KUVERT_SCREENSHOTS when set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import type { ApiClient } from '@shared/api/client';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_PATHS, type DeliveryDetail } from '@shared/contract/deliveries';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService, type UnlockedKeys } from '@shared/crypto/service';
import { sendDelivery } from '@shared/transfer';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import {
  apiCall,
  apiSendDelivery,
  apiSignIn,
  en,
  locale,
  openSendPage,
  recipientsInput,
  secuPassFromNode,
  serverPerFile,
  signInToInbox,
  apiCreateAccount,
  test,
} from './fixtures';
import { testFileBytes } from '@tests/support/files';

const PASSWORD = 'Good-Passw0rd-ux';
const ALICE_PASSPHRASE = 'Alice-UX-SecuPass-Harbour-31';
const alice = { email: 'alice.ux@example.test', password: PASSWORD };
const bob = { email: 'bob.ux@example.test', password: PASSWORD };
const carol = { email: 'carol.ux@example.test', password: PASSWORD };
const external = 'erin.ux@example.test';
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const release = locale<typeof import('@locales/en/release.json')>('en', 'release');

const PHONE = { width: 400, height: 860 };
const DESKTOP = { width: 1280, height: 900 };

const LONG_WORD = 'W'.repeat(200);
const RTL_LINE = 'שלום, זהו קובץ חשוב עבורך. مرحبا، هذا ملف مهم لك.';
const MULTI_LINE_BODY = [
  'Dear Bob,',
  '',
  'the figures you asked for are attached. This first paragraph is long enough to wrap at phone width and at desktop width alike, so its lines must stack without touching each other.',
  LONG_WORD,
  RTL_LINE,
  'Kind regards,',
  'Alice',
].join('\n');
/** 10,000 characters: words and line breaks. */
const LONG_BODY = Array.from({ length: 200 }, (_, i) => `Line ${String(i).padStart(3, '0')}: the quick brown fox jumps over the lazy dog.`)
  .join('\n')
  .padEnd(10_000, ' filler')
  .slice(0, 10_000);

const holder = serverPerFile('file');
let aliceClient: ApiClient;
let aliceKeys: UnlockedKeys;
const aliceCrypto = createCryptoService();
let multiLine: DeliveryDetail;
let longOne: DeliveryDetail;
let external1: DeliveryDetail;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const s = holder.server;
  const admin = await apiSignIn(s, s.admin);
  for (const account of [alice, bob, carol]) {
    await apiCreateAccount(s, admin, { email: account.email, password: account.password, firstName: account.email.split('.')[0], lastName: 'Tester' });
  }
  ({ client: aliceClient, keys: aliceKeys } = await secuPassFromNode(s, alice, ALICE_PASSPHRASE, aliceCrypto));
  await secuPassFromNode(s, bob, 'Bob-UX-SecuPass-Lighthouse-32');
  const session = await apiSignIn(s, alice);
  multiLine = await sendMessage(session, { to: [bob.email], subject: 'Figures with a long message', body: MULTI_LINE_BODY });
  longOne = await sendMessage(session, { to: [bob.email], subject: 'Ten thousand characters', body: LONG_BODY });
  external1 = await sendMessage(session, { to: [external], subject: 'For an external reader', body: MULTI_LINE_BODY, level: SECURITY_LEVELS.LEVEL_1 });
});

/** A message-only delivery (no files) through the real API, as the send page creates one. */
async function sendMessage(session: Awaited<ReturnType<typeof apiSignIn>>, options: { to: string[]; subject: string; body: string; level?: number }): Promise<DeliveryDetail> {
  const s = holder.server;
  const draft = await apiCall(s, session, 'POST', DELIVERY_PATHS.create, {
    recipients: options.to,
    subject: options.subject,
    body: options.body,
    securityLevel: options.level ?? SECURITY_LEVELS.LEVEL_2,
    language: 'en',
  });
  expect(draft.status, await draft.clone().text()).toBe(201);
  const { deliveryUuid } = (await draft.json()) as DeliveryDetail;
  const sent = await apiCall(s, session, 'POST', DELIVERY_PATHS.send(deliveryUuid));
  expect(sent.status, await sent.clone().text()).toBe(200);
  return (await sent.json()) as DeliveryDetail;
}

async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.KUVERT_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}

/** The page does not scroll sideways (the whole document fits the viewport's width). */
async function expectNoHorizontalScroll(page: Page, screen: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${screen}: document width ${scrollWidth} within the viewport ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
const overlaps = (a: Box, b: Box) => Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5 && Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5;

/**
 * A message as the sender wrote it: the text (line breaks kept), the element's own boxes never
 * overlap each other (an inline element with padding paints one padded box per line, over the
 * neighbouring lines), every line of text lies inside the box, nothing overflows it sideways, and
 * each paragraph starts on its own side (left for left-to-right, right for right-to-left).
 */
async function expectReadableMessage(message: Locator, text: string): Promise<void> {
  await expect(message).toBeVisible();
  const measured = await message.evaluate((element, rtl) => {
    const box = (r: DOMRect) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width });
    const range = document.createRange();
    range.selectNodeContents(element);
    const lines = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map(box);
    const style = getComputedStyle(element);
    const outer = element.getBoundingClientRect();
    const content = {
      left: outer.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth),
      right: outer.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth),
    };
    // Where the right-to-left paragraph and the first (left-to-right) one stand.
    const node = [...element.childNodes].find((n) => n.nodeType === Node.TEXT_NODE) ?? element.firstChild;
    const sideOf = (needle: string) => {
      const at = node?.textContent?.indexOf(needle) ?? -1;
      if (!node || at < 0) return null;
      const part = document.createRange();
      part.setStart(node, at);
      part.setEnd(node, at + needle.length);
      const rects = [...part.getClientRects()].filter((r) => r.width > 0);
      return rects.length > 0 ? { left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) } : null;
    };
    return {
      boxes: [...element.getClientRects()].map(box),
      lines,
      outer: box(outer),
      content,
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
      innerText: (element as HTMLElement).innerText,
      rtlSide: sideOf(rtl),
      ltrSide: sideOf('Dear Bob,'),
    };
  }, RTL_LINE);

  expect(measured.innerText, 'the text with its line breaks').toBe(text);
  for (let i = 0; i < measured.boxes.length; i++) {
    for (let j = i + 1; j < measured.boxes.length; j++) {
      expect(overlaps(measured.boxes[i]!, measured.boxes[j]!), `box ${i} and box ${j} of the message overlap`).toBe(false);
    }
  }
  const lineTops = new Set(measured.lines.map((line) => Math.round(line.top)));
  expect(lineTops.size, 'one line box per written line at least').toBeGreaterThanOrEqual(text.split('\n').filter((l) => l !== '').length);
  for (const line of measured.lines) {
    expect(line.left, 'a line starts inside the box').toBeGreaterThanOrEqual(measured.outer.left - 0.5);
    expect(line.right, 'a line ends inside the box').toBeLessThanOrEqual(measured.outer.right + 0.5);
    expect(line.top).toBeGreaterThanOrEqual(measured.outer.top - 0.5);
    expect(line.bottom).toBeLessThanOrEqual(measured.outer.bottom + 0.5);
  }
  expect(measured.scrollWidth, 'nothing overflows the message sideways').toBeLessThanOrEqual(measured.clientWidth);
  if (measured.rtlSide) expect(Math.abs(measured.rtlSide.right - measured.content.right), 'the right-to-left paragraph starts on the right').toBeLessThan(2);
  if (measured.ltrSide) expect(Math.abs(measured.ltrSide.left - measured.content.left), 'the left-to-right paragraph starts on the left').toBeLessThan(2);
}

/** The delivery's message on a detail page. */
const messageOf = (page: Page) => page.getByRole('region', { name: en.deliveries.fields.body }).locator('> div');

/** Every cell of a table fits its content, and the cells of a row never overlap. */
async function expectTableReadable(table: Locator): Promise<void> {
  const rows = await table.evaluate((element) =>
    [...element.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => {
        const r = cell.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, scrollWidth: cell.scrollWidth, clientWidth: cell.clientWidth };
      }),
    ),
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const cells of rows) {
    for (let i = 0; i < cells.length; i++) {
      expect(cells[i]!.scrollWidth, `cell ${i} holds its content`).toBeLessThanOrEqual(cells[i]!.clientWidth);
      for (let j = i + 1; j < cells.length; j++) expect(overlaps(cells[i]!, cells[j]!), `cells ${i} and ${j} overlap`).toBe(false);
    }
  }
}

async function newSignedInPage(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInToInbox(page, holder.server, account);
  return page;
}

test('messages read as written on the inbox, sent and external download pages, at phone and desktop width', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const s = holder.server;
  await page.setViewportSize(DESKTOP);
  await signInToInbox(page, s, bob);
  for (const [delivery, body] of [
    [multiLine, MULTI_LINE_BODY],
    [longOne, LONG_BODY],
  ] as const) {
    await page.goto(`${s.url}/secumails/inbox/${delivery.deliveryUuid}`);
    await expect(page.getByRole('heading', { level: 2, name: delivery.subject })).toBeVisible();
    // A message-only delivery shows no file section (no "0 files" heading).
    await expect(page.getByRole('heading', { level: 3, name: en.deliveries.fields.filesTitle_other.replace('{{count}}', '0') })).toHaveCount(0);
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await expectReadableMessage(messageOf(page), body);
      await expectNoHorizontalScroll(page, `inbox detail (${name})`);
      if (delivery === multiLine) await screenshot(page, `inbox-detail-${name}`);
    }
    await page.setViewportSize(DESKTOP);
  }

  // The sender's Sent detail.
  const sender = await newSignedInPage(browser, alice);
  await sender.goto(`${s.url}/secumails/outbox/${multiLine.deliveryUuid}`);
  await expect(sender.getByRole('heading', { level: 2, name: multiLine.subject })).toBeVisible();
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await sender.setViewportSize(viewport);
    await expectReadableMessage(messageOf(sender), MULTI_LINE_BODY);
    await expectNoHorizontalScroll(sender, `sent detail (${name})`);
    await screenshot(sender, `sent-detail-${name}`);
  }
  await sender.context().close();

  // The external reader: the mailed link, the email prompt, the download page.
  const mail = await waitForMailboxMail(s.mailboxDir, addressedTo(external));
  const link = extractLink(mail, '/secumails/');
  const context = await browser.newContext({ viewport: PHONE });
  const reader = await context.newPage();
  await reader.goto(link.toString());
  await expect(reader.getByLabel('Email address')).toBeVisible();
  await expectNoHorizontalScroll(reader, 'email prompt (phone)');
  await screenshot(reader, 'email-prompt-phone');
  await reader.getByLabel('Email address').fill(external);
  await reader.getByRole('button', { name: 'Continue' }).click();
  await expect(reader.getByRole('heading', { level: 2, name: external1.subject })).toBeVisible();
  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await reader.setViewportSize(viewport);
    await expectReadableMessage(messageOf(reader), MULTI_LINE_BODY);
    await expectNoHorizontalScroll(reader, `external download page (${name})`);
    await screenshot(reader, `external-download-${name}`);
  }
  await context.close();
});

test('recipient chips: a click edits, only × and Backspace/Delete on a focused chip remove', async ({ page }) => {
  const s = holder.server;
  await signInToInbox(page, s, alice);
  await openSendPage(page, s);
  await recipientsInput(page).fill('first@example.test, second@example.test, third@example.test,');
  const removeButton = (address: string) => page.getByRole('button', { name: `Remove ${address}`, exact: true });
  // The chip's own button: its address, after the warning an unknown address carries ("Not registered").
  const chip = (address: string) => page.getByRole('button', { name: new RegExp(`^(?!Remove )(.* )?${address.replace(/[.]/g, '\\.')}$`) });
  for (const address of ['first@example.test', 'second@example.test', 'third@example.test']) await expect(removeButton(address)).toBeVisible();

  // A click on the address edits it in place: nothing is removed.
  await chip('first@example.test').click();
  const edit = page.getByRole('textbox', { name: 'Edit first@example.test' });
  await expect(edit).toBeFocused();
  await expect(edit).toHaveValue('first@example.test');
  await expect(removeButton('second@example.test')).toBeVisible();
  // Escape keeps the address as it was.
  await edit.press('Escape');
  await expect(chip('first@example.test')).toBeVisible();
  await expect(chip('first@example.test')).toBeFocused();
  // An edit replaces the address at its place.
  await chip('first@example.test').click();
  await page.getByRole('textbox', { name: 'Edit first@example.test' }).fill('fixed@example.test');
  await page.getByRole('textbox', { name: 'Edit first@example.test' }).press('Enter');
  await expect(chip('fixed@example.test')).toBeVisible();
  await expect(chip('first@example.test')).toHaveCount(0);
  const tags = page.getByRole('toolbar', { name: en.send.recipients.label });
  await expect(tags.getByRole('button', { name: /^Remove / })).toHaveCount(3);
  await expect(tags.getByRole('button', { name: /^Remove / }).first()).toHaveAccessibleName('Remove fixed@example.test');
  // Emptying an edit removes nothing either.
  await chip('fixed@example.test').click();
  await page.getByRole('textbox', { name: 'Edit fixed@example.test' }).fill('');
  await page.getByRole('textbox', { name: 'Edit fixed@example.test' }).press('Enter');
  await expect(chip('fixed@example.test')).toBeVisible();

  // The × removes.
  await removeButton('second@example.test').click();
  await expect(chip('second@example.test')).toHaveCount(0);
  // Backspace in the empty field only moves to the last chip; Backspace there removes it.
  await recipientsInput(page).focus();
  await recipientsInput(page).press('Backspace');
  await expect(chip('third@example.test')).toBeFocused();
  await expect(chip('third@example.test')).toBeVisible();
  await page.keyboard.press('Backspace');
  await expect(chip('third@example.test')).toHaveCount(0);
  // Delete on a focused chip removes it too.
  await chip('fixed@example.test').focus();
  await page.keyboard.press('Delete');
  await expect(chip('fixed@example.test')).toHaveCount(0);
  await expect(tags).toHaveCount(0);

  // At phone width the send page, with a chip, fits.
  await recipientsInput(page).fill(`${bob.email},`);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page, 'send page (phone)');
  await screenshot(page, 'send-phone');
});

test('level 4: the sender reveals the subjects after unlocking (list, detail, release page); the unlock dialog names the action', async ({ page }) => {
  test.setTimeout(180_000);
  const s = holder.server;
  const pins = new MemoryKeyPinStore();
  const sendLevel4 = async (to: string, subject: string, body: string) => {
    const result = await sendDelivery({
      client: aliceClient,
      draft: { recipients: [to], subject, body, securityLevel: SECURITY_LEVELS.LEVEL_4 },
      files: [{ name: 'note.txt', blob: new Blob([testFileBytes(64)]), mimeType: 'text/plain' }],
      e2e: { crypto: aliceCrypto, keys: aliceKeys, pins, recordSize: 64 * 1024 },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    return result.delivery;
  };
  const forBob = await sendLevel4(bob.email, 'Salary review 2027', MULTI_LINE_BODY);
  // Carol has no passphrase yet: she sets one afterwards and waits for the release.
  await sendLevel4(carol.email, 'Board minutes March', 'Minutes attached.');
  await secuPassFromNode(s, carol, 'Carol-UX-SecuPass-Orchard-33');

  await signInToInbox(page, s, alice);
  await page.goto(`${s.url}/secumails/outbox`);
  const table = page.getByRole('table', { name: en.deliveries.list.sentTable });
  await expect(table.getByRole('link', { name: en.deliveries.e2e.encryptedSubject })).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'Salary review 2027' })).toHaveCount(0);
  await screenshot(page, 'sent-level4-locked-desktop');
  // Unlock to reveal: the dialog names decrypting; cancelled, nothing is shown.
  await table.getByRole('button', { name: en.deliveries.e2e.revealSubject }).first().click();
  const decryptDialog = page.getByRole('dialog', { name: secupass.unlock.title.decrypt });
  await expect(decryptDialog).toBeVisible();
  await expect(decryptDialog.getByRole('button', { name: secupass.unlock.submit.decrypt })).toBeVisible();
  await decryptDialog.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(decryptDialog).toBeHidden();
  await expect(table.getByRole('link', { name: en.deliveries.e2e.encryptedSubject })).toHaveCount(2);
  await table.getByRole('button', { name: en.deliveries.e2e.revealSubject }).first().click();
  await decryptDialog.getByLabel(/^Passphrase/).fill(ALICE_PASSPHRASE);
  await decryptDialog.getByRole('button', { name: secupass.unlock.submit.decrypt }).click();
  await expect(decryptDialog).toBeHidden({ timeout: 30_000 });
  // Both subjects now, told apart.
  await expect(table.getByRole('link', { name: 'Salary review 2027' })).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('link', { name: 'Board minutes March' })).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('button', { name: en.deliveries.e2e.revealSubject })).toHaveCount(0);
  await screenshot(page, 'sent-level4-revealed-desktop');

  // The detail: the decrypted subject as its heading, at once (the keys are unlocked).
  await table.getByRole('link', { name: 'Salary review 2027' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Salary review 2027' })).toBeVisible({ timeout: 30_000 });
  // The decrypted message reads as written.
  await page.getByRole('button', { name: en.deliveries.e2e.unlock }).click();
  const decrypted = page.getByRole('region', { name: en.deliveries.fields.body }).locator('> div');
  await expectReadableMessage(decrypted, MULTI_LINE_BODY);
  await page.setViewportSize(PHONE);
  await expectReadableMessage(decrypted, MULTI_LINE_BODY);
  await expectNoHorizontalScroll(page, 'sent level-4 detail (phone)');
  await screenshot(page, 'sent-level4-detail-phone');
  await page.setViewportSize(DESKTOP);

  // The release page, unlocked: carol's delivery by its subject.
  await page.goto(`${s.url}/secumails/release`);
  // A reload locked the keys: "Encrypted message" with unlock-to-reveal, and Release asks "to release".
  const releaseTable = page.getByRole('table', { name: release.tableLabel });
  await expect(releaseTable.getByText(en.deliveries.e2e.encryptedSubject)).toBeVisible();
  await expect(releaseTable.getByRole('row', { name: new RegExp(carol.email) })).toBeVisible();
  await page.getByRole('button', { name: release.submit }).click();
  const releaseDialog = page.getByRole('dialog', { name: secupass.unlock.title.release });
  await expect(releaseDialog).toBeVisible();
  await expect(releaseDialog.getByRole('button', { name: secupass.unlock.submit.release })).toBeVisible();
  await releaseDialog.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(releaseDialog).toBeHidden();
  await releaseTable.getByRole('button', { name: en.deliveries.e2e.revealSubject }).click();
  await decryptDialog.getByLabel(/^Passphrase/).fill(ALICE_PASSPHRASE);
  await decryptDialog.getByRole('button', { name: secupass.unlock.submit.decrypt }).click();
  await expect(releaseTable.getByText('Board minutes March')).toBeVisible({ timeout: 30_000 });
  await expectNoHorizontalScroll(page, 'release page (desktop)');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page, 'release page (phone)');
  await expectTableReadable(releaseTable);
  await screenshot(page, 'release-phone');
  await page.setViewportSize(DESKTOP);

  // Sending at level 3 asks "to encrypt and send" (a fresh page: the keys are locked).
  await page.reload();
  await openSendPage(page, s);
  await recipientsInput(page).fill(`${bob.email},`);
  await page.getByRole('textbox', { name: en.send.subject.label }).fill('Wording check');
  await page.getByRole('textbox', { name: en.send.body.label }).fill('Hello.');
  await page.getByRole('radio', { name: en.send.level.level3.title }).check();
  await page.getByRole('button', { name: en.send.submit, exact: true }).click();
  const sendDialog = page.getByRole('dialog', { name: secupass.unlock.title.send });
  await expect(sendDialog).toBeVisible();
  await expect(sendDialog.getByRole('button', { name: secupass.unlock.submit.send })).toBeVisible();
  await sendDialog.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(sendDialog).toBeHidden();
  expect(forBob.securityLevel).toBe(SECURITY_LEVELS.LEVEL_4);
});

test('a download refreshes the open delivery’s activity log and the inbox’s “Downloaded” column', async ({ page }) => {
  test.setTimeout(120_000);
  const s = holder.server;
  const sent = await apiSendDelivery(s, await apiSignIn(s, alice), { to: bob.email, subject: 'Report to download', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'report.bin', bytes: testFileBytes(2048) }] });
  await signInToInbox(page, s, bob);
  const inbox = page.getByRole('table', { name: en.deliveries.list.inboxTable });
  const row = inbox.getByRole('row', { name: /Report to download/ });
  await expect(row).toContainText(en.deliveries.downloaded.no);
  await row.getByRole('link', { name: 'Report to download' }).click();
  await expect(page).toHaveURL(new RegExp(`/secumails/inbox/${sent.deliveryUuid}$`));
  const activity = page.getByRole('table', { name: en.deliveries.activity.title });
  await expect(activity).toBeVisible();
  await expect(activity.getByRole('row', { name: new RegExp(en.deliveries.activity.kind.downloaded) })).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByLabel('Download report.bin').click()]);
  await download.path();
  // No reload: the open page shows the download.
  await expect(activity.getByRole('row', { name: new RegExp(`${en.deliveries.activity.kind.downloaded}.*report\\.bin`) })).toHaveCount(1, { timeout: 30_000 });
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page, 'inbox detail with activity (phone)');
  await expectTableReadable(activity);
  await screenshot(page, 'inbox-activity-phone');
  await page.setViewportSize(DESKTOP);
  // Back in the list (the client's cache, no reload): "Downloaded" says yes.
  await page.getByRole('link', { name: en.deliveries.inbox.back }).click();
  await expect(inbox.getByRole('row', { name: /Report to download/ })).toContainText(en.deliveries.downloaded.yes);
});

test('at 400 px no delivery screen scrolls sideways and the lists stay readable', async ({ page }) => {
  test.setTimeout(120_000);
  const s = holder.server;
  await page.setViewportSize(PHONE);
  await signInToInbox(page, s, bob);
  const inbox = page.getByRole('table', { name: en.deliveries.list.inboxTable });
  await expect(inbox).toBeVisible();
  await expectNoHorizontalScroll(page, 'inbox (phone)');
  await expectTableReadable(inbox);
  await screenshot(page, 'inbox-phone');
  await page.setViewportSize(DESKTOP);
  await expectTableReadable(inbox);
  await screenshot(page, 'inbox-desktop');
  await page.setViewportSize(PHONE);

  // The user menu and the compact menu are reachable at phone width.
  await expect(page.getByRole('button', { name: /^User menu of / })).toBeVisible();
  await expect(page.getByRole('button', { name: en.shell.menu.label })).toBeVisible();

  await page.goto(`${s.url}/secumails/outbox`);
  await expect(page.getByRole('heading', { level: 1, name: en.shell.deliveryMenu.sent })).toBeVisible();
  await expectNoHorizontalScroll(page, 'sent, empty (phone)');

  await signInAs(page, alice);
  await page.goto(`${s.url}/secumails/outbox`);
  const sentTable = page.getByRole('table', { name: en.deliveries.list.sentTable });
  await expect(sentTable).toBeVisible();
  await expectNoHorizontalScroll(page, 'sent (phone)');
  await expectTableReadable(sentTable);
  await screenshot(page, 'sent-phone');
  await sentTable.getByRole('link', { name: 'Report to download' }).click();
  await expect(page.getByRole('table', { name: en.deliveries.recipients.title })).toBeVisible();
  await expectNoHorizontalScroll(page, 'sent detail (phone)');
  await expectTableReadable(page.getByRole('table', { name: en.deliveries.recipients.title }));
  await expectTableReadable(page.getByRole('table', { name: en.deliveries.activity.title }));
  await screenshot(page, 'sent-detail-activity-phone');
  await openSendPage(page, s);
  await recipientsInput(page).fill('a.rather.long.address.of.someone@subsidiary.example.test, bob.ux@example.test,');
  await expectNoHorizontalScroll(page, 'send (phone)');
  await screenshot(page, 'send-chips-phone');
  await page.goto(`${s.url}/secumails/release`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoHorizontalScroll(page, 'release (phone)');

  // The external download success page.
  await page.goto(`${s.url}/secumails/en/download-success/${external1.deliveryUuid}`);
  await expect(page.getByRole('heading', { level: 1, name: en.deliveries.download.successTitle })).toBeVisible();
  await expectNoHorizontalScroll(page, 'download success (phone)');
});

async function signInAs(page: Page, account: { email: string; password: string }) {
  await page.context().clearCookies();
  await signInToInbox(page, holder.server, account);
}

test('the open Sent detail follows the recipients: a download elsewhere shows on coming back to the tab', async ({ page }) => {
  test.setTimeout(120_000);
  const s = holder.server;
  const sent = await apiSendDelivery(s, await apiSignIn(s, alice), { to: bob.email, subject: 'Watched by the sender', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'watched.bin', bytes: testFileBytes(1024) }] });
  await signInToInbox(page, s, alice);
  await page.goto(`${s.url}/secumails/outbox/${sent.deliveryUuid}`);
  const states = page.getByRole('table', { name: en.deliveries.recipients.title });
  const bobRow = states.getByRole('row', { name: new RegExp(bob.email.replace(/[.+]/g, '\\$&')) });
  await expect(bobRow).toContainText(en.deliveries.recipients.notYet);

  // Bob downloads in another browser (here: his API session); the sender's page is not reloaded.
  const bobSession = await apiSignIn(s, bob);
  const downloaded = await apiCall(s, bobSession, 'GET', DELIVERY_PATHS.content(sent.deliveryUuid, sent.files[0]!.fileId));
  expect(downloaded.status).toBe(200);
  await downloaded.arrayBuffer();
  // Coming back to the tab looks again (SWR throttles focus looks to one per 5 s: keep focusing until it shows).
  // The first focus looks at once; a short interval reads its answer without waiting a whole second.
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('focus')));
        return (await bobRow.textContent()) ?? '';
      },
      { timeout: 30_000, intervals: [250] },
    )
    .not.toContain(en.deliveries.recipients.notYet);
  await expect(bobRow).toContainText(en.deliveries.recipients.downloadedAt.split('{{')[0]!);
});
