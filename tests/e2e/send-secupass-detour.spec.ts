// The send page's level-3 detour to set a SecuPass (issue 13 item 2), walked in Chromium against
// the real server: a sender without a passphrase fills the form (recipient, subject, message, two
// picked files), chooses level 3 and sends → the dialog says there is no passphrase yet → "Set
// passphrase" closes the dialog and opens the set page with `continue` → after setting it,
// "Continue" brings back the send page with the whole draft (files too) → Send → sent. The
// recipient (Node, real crypto) opens it: the two files with their names and sizes.
import { randomBytes } from 'node:crypto';
import { getOwnSecuPass } from '@shared/api/endpoints/secupass';
import { createCryptoService } from '@shared/crypto/service';
import { openE2eDelivery } from '@shared/transfer';
import { apiCall, apiSignIn, en, expect, expectAppRootNotHidden, expectNoSeriousA11yViolations, locale, nodeClient, openSendPage, pickFiles, recipientsInput, secuPassFromNode, serverPerFile, signInToInbox, test, apiCreateAccount, screenshotsAtWidths } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const erin = { email: 'erin.nokey@example.test', password: PASSWORD };
const bob = { email: 'bob.detour@example.test', password: PASSWORD };
const ERIN_PASSPHRASE = 'Erin-Detour-SecuPass-Orchard-51';
const BOB_PASSPHRASE = 'Bob-Detour-SecuPass-Granite-52';
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const send = en.send;
const files = [
  { name: 'plan.bin', bytes: new Uint8Array(randomBytes(3000)) },
  { name: 'budget.bin', bytes: new Uint8Array(randomBytes(1234)) },
];

const holder = serverPerFile();

test.beforeAll(async () => {
  const admin = await apiSignIn(holder.server, holder.server.admin);
  for (const account of [erin, bob]) {
    await apiCreateAccount(holder.server, admin, { email: account.email, password: account.password });
  }
  await secuPassFromNode(holder.server, bob, BOB_PASSPHRASE);
});


test('level 3 without a passphrase: set it from the dialog, come back to the whole draft (files too) and send it', async ({ page }) => {
  // Argon2id in the browser (setting the passphrase) on a shared 2-core machine.
  test.setTimeout(180_000);
  const { server } = holder;
  await signInToInbox(page, server, erin);
  await openSendPage(page, server);
  await recipientsInput(page).fill(bob.email);
  await recipientsInput(page).press('Enter');
  await page.getByRole('textbox', { name: send.subject.label }).fill('Plan and budget');
  await page.getByRole('textbox', { name: send.body.label }).fill('Both files, encrypted.');
  await pickFiles(page, files);
  await page.getByRole('radio', { name: new RegExp(send.level.level3.title) }).check();
  await page.getByRole('button', { name: send.submit, exact: true }).click();

  const dialog = page.getByRole('dialog', { name: secupass.unlock.title.send });
  await expect(dialog.getByText(secupass.unlock.noneYet)).toBeVisible();
  await dialog.getByRole('link', { name: secupass.settings.set }).click();

  // The dialog is gone (nothing hidden behind it) and the set page will come back to the send page.
  await expect(page).toHaveURL(`${server.url}/auth/set-secupass?continue=${encodeURIComponent('/secumails/send')}`);
  await expect(page.getByRole('heading', { level: 1, name: secupass.set.title })).toBeVisible();
  await expectAppRootNotHidden(page);
  await page.getByLabel(/^Passphrase/).fill(ERIN_PASSPHRASE);
  await page.getByLabel(/^Confirm passphrase/).fill(ERIN_PASSPHRASE);
  await page.getByRole('button', { name: secupass.set.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: secupass.set.successTitle })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: secupass.success.continue }).click();

  // The whole draft is back, level 3 still chosen.
  await expect(page).toHaveURL(`${server.url}/secumails/send`);
  await expect(page.getByText(send.draft.restored_other.replace('{{count}}', '2'))).toBeVisible();
  await expect(page.getByRole('form', { name: send.title }).getByText(bob.email)).toBeVisible();
  await expect(page.getByRole('textbox', { name: send.subject.label })).toHaveValue('Plan and budget');
  await expect(page.getByRole('textbox', { name: send.body.label })).toHaveValue('Both files, encrypted.');
  for (const file of files) await expect(page.getByText(file.name, { exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(send.level.level3.title) })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'send page with the kept draft');
  await screenshotsAtWidths(page, 'recipient-send-draft-restored');

  // The keys set a moment ago are unlocked: Send goes straight through.
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('“Plan and budget” was sent to bob.detour@example.test.', { exact: false })).toBeVisible();

  // Bob opens it (Node, real crypto): both files, names and sizes from the signed manifest.
  const { crypto, keys, client } = await secuPassUnlocked();
  const inbox = (await (await apiCall(server, await apiSignIn(server, bob), 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
  const delivery = inbox.items.find((item) => item.subject === 'Plan and budget');
  expect(delivery).toBeDefined();
  const opened = await openE2eDelivery({ client, deliveryUuid: delivery!.deliveryUuid, e2e: { crypto, keys } });
  try {
    expect(opened.files.map((f) => [f.name, f.size]).sort()).toEqual(files.map((f) => [f.name, f.bytes.length]).sort());
  } finally {
    await opened.close();
  }

  // Sent: the draft is not kept any more — "Send another" (in-app, same memory) starts empty.
  await page.getByRole('button', { name: send.success.sendAnother }).click();
  await expect(page.getByRole('heading', { level: 1, name: send.title })).toBeVisible();
  await expect(page.getByText(send.draft.discard)).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: send.subject.label })).toHaveValue('');
});

/** Bob's keys, unlocked in Node with his passphrase. */
async function secuPassUnlocked() {
  const crypto = createCryptoService();
  const { client, userUuid } = await nodeClient(holder.server, bob);
  const own = await getOwnSecuPass(client);
  const { keys } = await crypto.unlockSecuPass({ userId: userUuid, blob: own.blob!, passphrase: BOB_PASSPHRASE });
  return { crypto, keys, client };
}
