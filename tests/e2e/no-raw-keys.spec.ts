// Issue 13, item 12: no screen shows an i18n key instead of a text. The activity log of a level-3
// delivery to a recipient without a SecuPass showed the server's code `releaseNeeded` in every
// language. A person walks the main screens in English, German and French (language switcher) —
// sign-in, inbox, send, sent list and the detail with that activity, release, settings, the
// administration pages, the data rooms (a room with a file, its trash, Secure rooms; issue 32 §3) and the
// areas still to come — and no visible text, label, placeholder or
// title equals a key path of the locale files or looks like a missing key.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService } from '@shared/crypto/service';
import { sendDelivery } from '@shared/transfer';
import {
  apiSignIn,
  en,
  expect,
  expectInbox,
  expectNoRawKeyTexts,
  locale,
  looksLikeRawKey,
  secuPassFromNode,
  serverPerFile,
  signIn,
  test, apiCreateAccount, screenshotsAtWidths } from './fixtures';
import { apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const carol = { email: 'carol.nokey@example.test', password: 'Good-Passw0rd-e2e' };
const ctx = serverPerFile();
let deliveryUuid = '';

const LANGUAGE_NAMES = { en: 'English', de: 'Deutsch', fr: 'Français' } as const;
const deliveries = { en: en.deliveries, de: locale<typeof en.deliveries>('de', 'deliveries'), fr: locale<typeof en.deliveries>('fr', 'deliveries') };

test.beforeAll(async () => {
  const { server } = ctx;
  const session = await apiSignIn(server, server.admin);
  await apiCreateAccount(server, session, { ...carol, firstName: 'Carol', lastName: 'Nokey' });
  // The administrator sends a level-3 delivery to Carol, who has no SecuPass yet: she is invited
  // and the activity log records the invitation with the detail code `releaseNeeded`.
  const crypto = createCryptoService();
  const { client, keys } = await secuPassFromNode(server, server.admin, 'Admin-SecuPass-Harbour-51', crypto);
  const result = await sendDelivery({
    client,
    draft: { recipients: [carol.email], subject: 'Encrypted plans', body: 'See attachment.', securityLevel: 20 },
    files: [{ name: 'plans.bin', blob: new Blob([randomBytes(2048)]), mimeType: 'application/octet-stream' }],
    e2e: { crypto, keys, pins: new MemoryKeyPinStore(), recordSize: 64 * 1024 },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  deliveryUuid = result.delivery.deliveryUuid;
});

test('the key rule itself: key paths, missing-key shapes and codes are caught, texts are not', () => {
  for (const raw of ['releaseNeeded', 'activity.kind.notified', 'deliveries:activity.details.releaseNeeded', 'deliveries:nothing.here', 'activity.details.unknownCode', 'list.inboxEmptyTitle']) {
    expect(looksLikeRawKey(raw), raw).toBe(true);
  }
  for (const text of [en.deliveries.activity.details.releaseNeeded, 'plans.bin', 'carol.nokey@example.test', 'SecuPass', 'Kuvert', '2 KB', 'Encrypted plans']) {
    expect(looksLikeRawKey(text), text).toBe(false);
  }
});

async function switchLanguage(page: Page, from: keyof typeof LANGUAGE_NAMES, to: keyof typeof LANGUAGE_NAMES) {
  if (from === to) return;
  await page.getByRole('button', { name: new RegExp(`${LANGUAGE_NAMES[from]}$`) }).click();
  await page.getByRole('menuitemradio', { name: LANGUAGE_NAMES[to] }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', to);
}

/** Opens a path and waits until its main heading and data are there. */
async function visit(page: Page, path: string, screen: string) {
  await page.goto(`${ctx.server.url}${path}`);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.locator('[role="status"][aria-busy="true"], .fui-Spinner')).toHaveCount(0);
  await expectNoRawKeyTexts(page, screen);
}

test('the activity detail of the invitation is a text in de, en and fr, never the code', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  let current: keyof typeof LANGUAGE_NAMES = 'en';
  for (const language of ['en', 'de', 'fr'] as const) {
    await switchLanguage(page, current, language);
    current = language;
    await page.goto(`${server.url}/secumails/outbox/${deliveryUuid}`);
    const log = page.getByRole('region', { name: deliveries[language].activity.title });
    await expect(log.getByText(deliveries[language].activity.details.releaseNeeded)).toBeVisible();
    await expect(log.getByText('releaseNeeded', { exact: true })).toHaveCount(0);
    await expectNoRawKeyTexts(page, `sent detail (${language})`);
    if (language === 'de') {
      await screenshotsAtWidths(page, 'polish-12-activity');
    }
  }
  await switchLanguage(page, current, 'en');
});

test('no raw key on the main screens, in every language', async ({ page, browser }) => {
  test.setTimeout(480_000); // 19 screens in English, 11 in German and French, on a shared 2-core machine
  const { server } = ctx;
  // Signed out: the sign-in page.
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await expectNoRawKeyTexts(page, 'sign-in');

  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  // A data room with a file (issue 32 §3 "de/en/fr complete": the room page, its trash, the Secure rooms list).
  const adminApi = await apiSignIn(server, server.admin);
  const room = await apiCreateRoom(server, adminApi, 'Räume Übersicht');
  await apiUploadRoomFile(server, adminApi, room.uuid, null, 'agenda.txt', new TextEncoder().encode('agenda'));
  const screens: [string, string][] = [
    ['/secumails/inbox', 'inbox'],
    ['/secumails/send', 'send'],
    ['/secumails/outbox', 'sent'],
    [`/secumails/outbox/${deliveryUuid}`, 'sent detail'],
    ['/secumails/release', 'release'],
    ['/secumails/submit-box', 'submit box'],
    ['/settings', 'settings'],
    ['/admin', 'administration'],
    ['/admin/system', 'system settings'],
    ['/admin/secure-mails', 'secure mails settings'],
    ['/admin/users', 'users'],
    ['/datarooms', 'data rooms'],
    [`/datarooms/${room.uuid}`, 'data room'],
    [`/datarooms/${room.uuid}/trash`, 'room trash'],
    ['/secure-rooms', 'secure rooms'],
    ['/forms', 'forms'],
    ['/help', 'help'],
    ['/admin/secure-rooms', 'secure rooms settings'],
    ['/admin/trash-bin', 'trash bin'],
  ];
  // Every screen in English; in German and French the screens with run-time keys (lists, states, levels, activity).
  const translated = new Set(['inbox', 'send', 'sent', 'sent detail', 'secure mails settings', 'data rooms', 'data room', 'room trash', 'secure rooms', 'secure rooms settings', 'trash bin']);
  let current: keyof typeof LANGUAGE_NAMES = 'en';
  for (const language of ['en', 'de', 'fr'] as const) {
    await switchLanguage(page, current, language);
    current = language;
    for (const [path, screen] of screens) if (language === 'en' || translated.has(screen)) await visit(page, path, `${screen} (${language})`);
  }
  await switchLanguage(page, current, 'en');

  // The recipient's side: her inbox and the delivery waiting for her passphrase.
  const carolPage = await (await browser.newContext()).newPage();
  await signIn(carolPage, server, { username: carol.email, password: carol.password });
  await expect(carolPage).toHaveURL(/\/secumails\/inbox|\/auth\/create-secupass/);
  await carolPage.goto(`${server.url}/secumails/inbox`);
  await expect(carolPage.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoRawKeyTexts(carolPage, 'recipient inbox');
  await carolPage.goto(`${server.url}/secumails/inbox/${deliveryUuid}`);
  await expect(carolPage.getByRole('heading', { name: 'Encrypted plans' })).toBeVisible();
  await expectNoRawKeyTexts(carolPage, 'recipient detail');
  await carolPage.context().close();
});
