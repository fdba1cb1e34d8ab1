// The add-in harness: the built task pane in Chromium, office.js replaced by a recording
// stand-in at its CDN address, against the real server (SPEC §2 add-in send screen, §8 add-in
// errors). The recipient's delivery is checked in the mailbox folder and downloaded byte for byte.
import { createHash } from 'node:crypto';
import { access, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import argon2 from 'argon2';
import { Secret } from 'otpauth';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { API_BASE, SECURITY_LEVELS } from '@shared/contract/constants';
import { downloadE2eFile, openE2eDelivery, RETRY_WINDOW_MS } from '@shared/transfer';
import { e2eActor, e2eOf, giveSecuPass } from '@tests/integration/e2e-helpers';
import { SETTING_KEYS } from '@shared/contract/settings';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { ShareProofJar } from '@tests/support/share-proof';
import { addressedTo, extractLink, waitForMailboxMail } from '@tests/support/mailbox';
import { apiCall, apiSignIn, authenticatorFor, expect, expectNoSeriousA11yViolations, locale, serverPerFile, setSettingsAsAdmin, test, type TestServer } from '../e2e/fixtures';
import { installPageClock } from '../e2e/blob-outage';
import { OFFICE_JS_STAND_IN, OFFICE_JS_URL, type OfficeCall, type StandInMailbox } from './office-stand-in';
import { testFileBytes } from '@tests/support/files';

const exists = (path: string) => access(path).then(() => true, () => false);
const addin = locale<typeof import('@locales/en/addin.json')>('en', 'addin');
const addinDe = locale<typeof import('@locales/de/addin.json')>('de', 'addin');

const holder = serverPerFile('file');
const lightHash = (password: string) => argon2.hash(password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
const OUTLOOK_ROLES = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_OUTLOOK'] as const;
let counter = 0;

async function outlookUser(server: TestServer, roles: readonly string[] = OUTLOOK_ROLES): Promise<TestUser> {
  counter += 1;
  return createUserInRepository(server, { username: `outlook${counter}`, roles: [...roles] as never, hash: lightHash });
}

interface Attachment {
  name: string;
  bytes: Buffer;
}

function mailbox(overrides: Partial<StandInMailbox> & { files?: Attachment[] } = {}): StandInMailbox {
  const files = overrides.files ?? [];
  return {
    mode: 'compose',
    displayLanguage: 'en-US',
    to: [],
    cc: [],
    bcc: [],
    subject: 'Quarterly figures',
    body: 'Please find the figures attached.',
    ...overrides,
    attachments: files.map((f, i) => ({ id: `att-${i}`, name: f.name, base64: f.bytes.toString('base64'), size: f.bytes.length })),
  };
}

/** Opens the built task pane with the stand-in for office.js. */
async function openPane(page: Page, server: TestServer, box: StandInMailbox, query = ''): Promise<void> {
  await page.addInitScript((cfg) => {
    (window as unknown as { __kuvertMailbox: unknown }).__kuvertMailbox = cfg;
  }, box);
  await page.route(OFFICE_JS_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: OFFICE_JS_STAND_IN }));
  await page.goto(`${server.url}/addin/taskpane.html${query}`);
}

const officeCalls = (page: Page) => page.evaluate(() => (window as unknown as { __officeCalls: OfficeCall[] }).__officeCalls);

async function signInPane(page: Page, user: { username: string; password: string }, code?: () => string): Promise<void> {
  await expect(page.getByRole('heading', { name: addin.signIn.title })).toBeVisible();
  await page.getByLabel(addin.signIn.login).fill(user.username);
  await page.getByLabel(addin.signIn.password).fill(user.password);
  await page.getByRole('button', { name: addin.signIn.submit }).click();
  if (code) {
    await page.getByLabel(addin.signIn.code).fill(code());
    await page.getByRole('button', { name: addin.signIn.submit }).click();
  }
  await expect(page.getByRole('heading', { name: addin.send.title })).toBeVisible();
}

/** Downloads a delivery's files as `who` (a cookie session, or a level-1 token with the email prompt's proof) and returns name → bytes. */
async function download(server: TestServer, deliveryUuid: string, who: { cookie?: string; token?: string; jar?: ShareProofJar }): Promise<Map<string, Buffer>> {
  const headers: Record<string, string> = who.cookie ? { cookie: who.cookie } : { 'x-delivery-token': who.token! };
  const fetch = (url: string, init: RequestInit) => (who.jar ? who.jar.fetch(url, init) : globalThis.fetch(url, init));
  const detail = await fetch(`${server.url}${API_BASE}/deliveries/${deliveryUuid}`, { headers });
  expect(detail.status, await detail.clone().text()).toBe(200);
  const { files } = (await detail.json()) as { files: Array<{ fileId: string; name: string }> };
  const out = new Map<string, Buffer>();
  for (const file of files) {
    const content = await fetch(`${server.url}${API_BASE}/deliveries/${deliveryUuid}/files/${file.fileId}/content`, { headers });
    expect(content.status).toBe(200);
    out.set(file.name, Buffer.from(await content.arrayBuffer()));
  }
  return out;
}

/** The sender's newest sent delivery, as stored. */
const lastSent = (server: TestServer, senderId: number) =>
  server.app.db
    .selectFrom('deliveries')
    .select(['uuid', 'security_level', 'subject', 'body'])
    .where('sender_id', '=', senderId)
    .where('status', '=', 'sent')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

const twoAttachments = (): Attachment[] => [
  { name: 'figures.bin', bytes: testFileBytes(300_000) },
  { name: 'notes.txt', bytes: Buffer.from('Zahlen für Q3 — confidential\n'.repeat(50)) },
];

async function expectClosedAfterSuccess(page: Page): Promise<void> {
  await expect(page.getByText(addin.send.sent)).toBeVisible({ timeout: 30_000 });
  const calls = (await officeCalls(page)).map((c) => c.name);
  // The compose item is emptied and closed once, after every attachment was read.
  expect(calls.filter((c) => c === 'close')).toHaveLength(1);
  const lastRead = calls.lastIndexOf('getAttachmentContentAsync');
  for (const step of ['to.setAsync', 'cc.setAsync', 'bcc.setAsync', 'body.setAsync', 'close']) expect(calls.indexOf(step), step).toBeGreaterThan(lastRead);
  expect(calls.indexOf('close')).toBeGreaterThan(calls.indexOf('body.setAsync'));
}

test.describe('Outlook add-in task pane', () => {
  test('signs in, sends the composed mail at the minimal level 1; the external recipient downloads the same bytes', async ({ page }) => {
    const { server } = holder;
    const sender = await outlookUser(server);
    const files = twoAttachments();
    const recipient = `extern${Date.now()}@partner.test`;
    await openPane(page, server, mailbox({ to: [recipient], subject: 'Level one figures', files }));
    await expect(page.getByRole('heading', { name: addin.signIn.title })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'add-in sign-in');
    await signInPane(page, sender);
    await expectNoSeriousA11yViolations(page, 'add-in send screen');

    await expect(page.getByTestId('addin-recipients')).toHaveText(recipient);
    await expect(page.getByTestId('addin-subject')).toHaveText('Level one figures');
    await expect(page.getByTestId('addin-attachments')).toContainText('figures.bin');
    await expect(page.getByTestId('addin-attachments')).toContainText('notes.txt');
    // Every allowed level is offered (levels 3/4 too while the settings allow them); the minimal one is chosen.
    for (const key of ['level1', 'level2', 'level3', 'level4'] as const) await expect(page.getByRole('radio', { name: addin.send[key] })).toBeVisible();
    await expect(page.getByRole('radio', { name: addin.send.level1 })).toBeChecked();
    // Nothing was closed or replaced before the send.
    expect((await officeCalls(page)).map((c) => c.name)).not.toContain('close');

    await page.getByRole('button', { name: addin.send.submit }).click();
    await expectClosedAfterSuccess(page);

    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(recipient));
    // A level-1 link opens the share's email prompt; the token travels in the fragment.
    const link = extractLink(mail, '/email-prompt/');
    const { uuid: deliveryUuid } = await lastSent(server, sender.id);
    const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
    const jar = new ShareProofJar(server.url);
    expect(await jar.confirm(link, recipient)).toBe(200);
    const received = await download(server, deliveryUuid, { token, jar });
    expect([...received.keys()].sort()).toEqual(['figures.bin', 'notes.txt']);
    for (const f of files) expect(received.get(f.name)!.equals(f.bytes), f.name).toBe(true);
  });

  test('signs in with a TOTP code and sends at level 2 to a registered recipient, who downloads the same bytes', async ({ page }) => {
    const { server } = holder;
    const sender = await outlookUser(server);
    const secret = new Secret({ size: 20 });
    await server.app.users.update(sender.id, { totp_secret: server.app.secretBox.seal(sender.id, 'totp_secret', secret.base32) });
    const recipient = await outlookUser(server, ['ROLE_UI_USER', 'ROLE_RECEIVER']);
    const files = twoAttachments();
    await openPane(page, server, mailbox({ to: [recipient.email], cc: [], subject: 'Level two figures', files }));
    await signInPane(page, sender, () => authenticatorFor(secret.base32).generate());

    await page.getByRole('radio', { name: addin.send.level2 }).check();
    // A file picked in the pane itself travels with the Outlook attachments (DESIGN §6).
    const extra = { name: 'large-scan.pdf', bytes: testFileBytes(5 * 1024 * 1024 + 17) };
    await page.getByTestId('addin-file-input').setInputFiles({ name: extra.name, mimeType: 'application/pdf', buffer: extra.bytes });
    await expect(page.getByTestId('addin-attachments')).toContainText(extra.name);
    files.push(extra);
    await page.getByRole('button', { name: addin.send.submit }).click();
    await expectClosedAfterSuccess(page);

    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(recipient.email));
    const deliveryUuid = extractLink(mail, '/secumails/inbox/').pathname.split('/').pop()!;
    const session = await apiSignIn(server, { email: recipient.email, password: recipient.password });
    const received = await download(server, deliveryUuid, { cookie: session.cookie });
    expect(received.size).toBe(3);
    for (const f of files) expect(received.get(f.name)!.equals(f.bytes), f.name).toBe(true);
    const row = await server.app.db.selectFrom('deliveries').select('security_level').where('uuid', '=', deliveryUuid).executeTakeFirstOrThrow();
    expect(row.security_level).toBe(SECURITY_LEVELS.LEVEL_2);
  });

  test('levels 3 and 4: the pane asks for the passphrase, encrypts two attachments, and the recipient decrypts identical bytes', async ({ page }) => {
    test.setTimeout(180_000);
    const { server } = holder;
    const sender = await outlookUser(server);
    const recipient = await outlookUser(server, ['ROLE_UI_USER', 'ROLE_RECEIVER']);
    // SecuPasses set from Node with the real CryptoService (real Argon2id), as the web client would.
    const senderPassphrase = 'Outlook-Sender-SecuPass-Quartz-61';
    await giveSecuPass(await e2eActor(server, await apiSignIn(server, sender)), senderPassphrase);
    const reader = await e2eActor(server, await apiSignIn(server, recipient));
    await giveSecuPass(reader, 'Outlook-Recipient-SecuPass-Lantern-62');
    const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

    for (const [level, wire] of [
      ['level3', SECURITY_LEVELS.LEVEL_3],
      ['level4', SECURITY_LEVELS.LEVEL_4],
    ] as const) {
      const files = twoAttachments();
      const subject = `Encrypted figures ${level}`;
      const body = `The ${level} message body.`;
      await openPane(page, server, mailbox({ to: [recipient.email], subject, body, files }));
      if (level === 'level3') await signInPane(page, sender);
      else await expect(page.getByRole('heading', { name: addin.send.title })).toBeVisible();
      await page.getByRole('radio', { name: addin.send[level] }).check();
      await page.getByRole('button', { name: addin.send.submit }).click();

      const dialog = page.getByRole('dialog', { name: addin.unlock.title });
      const passphrase = dialog.getByLabel(addin.unlock.passphrase);
      if (level === 'level3') {
        await expectNoSeriousA11yViolations(page, 'add-in passphrase dialog');
        // A wrong passphrase: its message, nothing uploaded, the compose item untouched.
        await passphrase.fill('Not-The-Passphrase-1');
        await dialog.getByRole('button', { name: addin.unlock.submit }).click();
        await expect(dialog.getByText(addin.unlock.wrongPassphrase)).toBeVisible({ timeout: 30_000 });
        const calls = (await officeCalls(page)).map((c) => c.name);
        expect(calls.filter((c) => c === 'close' || c.endsWith('.setAsync') || c === 'getAttachmentContentAsync')).toEqual([]);
      }
      await passphrase.fill(senderPassphrase);
      await dialog.getByRole('button', { name: addin.unlock.submit }).click();
      await expectClosedAfterSuccess(page);

      const row = await lastSent(server, sender.id);
      expect(row.security_level).toBe(wire);
      // Level 4: subject and body live only in the encrypted manifest.
      if (level === 'level4') expect([row.subject, row.body]).toEqual(['', '']);

      // The recipient decrypts with the shared reader and Node's real CryptoService.
      const opened = await openE2eDelivery({ client: reader.client, deliveryUuid: row.uuid, e2e: e2eOf(reader) });
      expect(opened.files.map((f) => f.name).sort()).toEqual(['figures.bin', 'notes.txt']);
      // The pane writes manifest version 2: the sender's identity is signed, not taken from the server.
      expect(opened.manifest.version).toBe(2);
      expect(opened.signer).toMatchObject({ email: sender.email.toLowerCase(), signedIdentity: true });
      if (level === 'level4') expect(opened.message).toEqual({ subject, body });
      for (const file of opened.files) {
        const blob = await downloadE2eFile({ delivery: opened, fileId: file.fileId, crypto: reader.crypto, url: deliveryContentUrl(row.uuid, file.fileId, null, server.url), fetch: reader.fetch });
        const original = files.find((f) => f.name === file.name)!;
        expect(sha256(new Uint8Array(await blob.arrayBuffer())), file.name).toBe(sha256(original.bytes));
      }
    }

    // The recipient's key changes (administrator reset, new SecuPass): the key pinned in the pane at
    // the first send no longer matches, so the send stops with its message and Outlook's item stays.
    const admin = await apiSignIn(server, server.admin);
    const reset = await apiCall(server, admin, 'POST', `/admin/users/${reader.userUuid}/secupass/reset`);
    expect(reset.status, await reset.clone().text()).toBe(204);
    await giveSecuPass(reader, 'Outlook-Recipient-SecuPass-Harbour-63');
    await openPane(page, server, mailbox({ to: [recipient.email], subject: 'After the key change', files: twoAttachments() }));
    await page.getByRole('radio', { name: addin.send.level3 }).check();
    await page.getByRole('button', { name: addin.send.submit }).click();
    const dialog = page.getByRole('dialog', { name: addin.unlock.title });
    await dialog.getByLabel(addin.unlock.passphrase).fill(senderPassphrase);
    await dialog.getByRole('button', { name: addin.unlock.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(addin.delivery.keyChanged, { timeout: 30_000 });
    expect((await officeCalls(page)).map((c) => c.name).filter((c) => c === 'close' || c.endsWith('.setAsync'))).toEqual([]);

    // Signing out forgets the unlocked keys: after signing in again the pane asks for the passphrase again.
    await page.getByRole('button', { name: addin.signOut }).click();
    await signInPane(page, sender);
    await page.getByRole('radio', { name: addin.send.level3 }).check();
    await page.getByRole('button', { name: addin.send.submit }).click();
    await expect(dialog.getByLabel(addin.unlock.passphrase)).toBeVisible();
    await expect(dialog.getByLabel(addin.unlock.passphrase)).toHaveValue('');
  });

  test('the blob store away during the send: the pane says it waits for the server under its bar, then sends by itself', async ({ page }) => {
    test.setTimeout(RETRY_WINDOW_MS + 120_000);
    const { server } = holder;
    const sender = await outlookUser(server);
    const blobs = join(server.dataDir, 'blobs');
    let away = false;
    // The first part PUT finds the blob folder gone (an unmounted volume); it comes back later.
    await page.route('**/api/2/deliveries/*/files/*/parts/*', async (route) => {
      if (route.request().method() === 'PUT' && !away && !(await exists(`${blobs}.away`))) {
        away = true;
        await rename(blobs, `${blobs}.away`);
      }
      await route.continue().catch(() => undefined);
    });
    const clock = await installPageClock(page);
    await openPane(page, server, mailbox({ to: [`extern${Date.now()}@partner.test`], subject: 'Through an outage', files: twoAttachments() }));
    await signInPane(page, sender);
    await page.getByRole('button', { name: addin.send.submit }).click();
    // After the engine's retry window (on the page's clock, run ahead): the hint under the progress bar, the bar still there.
    await expect.poll(() => away, { timeout: 30_000 }).toBe(true);
    const hurried = clock.hurry();
    await expect(page.getByText(addin.send.waitingForServer)).toBeVisible({ timeout: RETRY_WINDOW_MS + 30_000 });
    await hurried.stop();
    await expect(page.getByRole('progressbar')).toBeVisible();
    expect((await officeCalls(page)).map((c) => c.name)).not.toContain('close');
    await rename(`${blobs}.away`, blobs);
    await clock.wakeRetries();
    await expect(page.getByText(addin.send.sent)).toBeVisible({ timeout: 60_000 });
    expect((await lastSent(server, sender.id)).subject).toBe('Through an outage');
  });

  test('shows each add-in error and never touches the compose item on a failure', async ({ page }) => {
    const { server } = holder;
    const sender = await outlookUser(server);
    const files = [{ name: 'a.txt', bytes: Buffer.from('a') }];
    const box = mailbox({ to: [], subject: 'No recipient', files });
    await openPane(page, server, box);
    await signInPane(page, sender);
    const send = page.getByRole('button', { name: addin.send.submit });

    // No recipient.
    await send.click();
    await expect(page.getByRole('alert')).toHaveText(addin.errors.noRecipient);
    // No subject (the pane reads the mail again when it opens).
    await openPane(page, server, { ...box, to: ['x@partner.test'], subject: '  ' });
    await expect(page.getByRole('heading', { name: addin.send.title })).toBeVisible();
    await send.click();
    await expect(page.getByRole('alert')).toHaveText(addin.errors.noSubject);
    // Levels 3/4 without a SecuPass: the pane says so and links to the web client, where one is created.
    for (const level of ['level3', 'level4'] as const) {
      await openPane(page, server, { ...box, to: ['x@partner.test'], subject: 'Encrypted' });
      await page.getByRole('radio', { name: addin.send[level] }).check();
      await send.click();
      const dialog = page.getByRole('dialog', { name: addin.unlock.title });
      await expect(dialog.getByRole('alert')).toHaveText(addin.unlock.none);
      await dialog.getByRole('button', { name: addin.unlock.create }).click();
      const opened = (await officeCalls(page)).filter((c) => c.name === 'openBrowserWindow');
      expect(opened.map((c) => c.args[0])).toEqual([`${server.url}/auth/set-secupass`]);
      await dialog.getByRole('button', { name: addin.unlock.cancel }).click();
      await expect(dialog).toBeHidden();
    }
    // Unknown: the send config cannot be loaded.
    await page.route(`${server.url}${API_BASE}/delivery/send/config`, (route) => route.fulfill({ status: 500, body: 'boom' }));
    await openPane(page, server, { ...box, to: ['x@partner.test'] });
    await expect(page.getByRole('alert')).toHaveText(addin.errors.unknown);
    await page.unroute(`${server.url}${API_BASE}/delivery/send/config`);

    expect((await officeCalls(page)).map((c) => c.name).filter((c) => c === 'close' || c.endsWith('.setAsync'))).toEqual([]);
  });

  test('no security level permission', async ({ page }) => {
    const { server } = holder;
    const sender = await outlookUser(server);
    const levels = [SETTING_KEYS.allowSecurityLevel1, SETTING_KEYS.allowSecurityLevel2, SETTING_KEYS.allowSecurityLevel3, SETTING_KEYS.allowSecurityLevel4];
    await setSettingsAsAdmin(server, Object.fromEntries(levels.map((k) => [k, false])));
    try {
      await openPane(page, server, mailbox({ to: ['x@partner.test'], files: [{ name: 'a.txt', bytes: Buffer.from('a') }] }));
      await signInPane(page, sender);
      await expect(page.getByText(addin.errors.noSecurityLevelPermission).first()).toBeVisible();
      await page.getByRole('button', { name: addin.send.submit }).click();
      await expect(page.getByRole('alert')).toHaveText(addin.errors.noSecurityLevelPermission);
    } finally {
      await setSettingsAsAdmin(server, Object.fromEntries(levels.map((k) => [k, true])));
    }
  });

  test('forbidden without ROLE_OUTLOOK, wrong password, and logout revokes the token; German follows Outlook', async ({ page }) => {
    const { server } = holder;
    const plain = await outlookUser(server, ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER']);
    await openPane(page, server, mailbox({ to: ['x@partner.test'] }));
    await page.getByLabel(addin.signIn.login).fill(plain.username);
    await page.getByLabel(addin.signIn.password).fill('wrong-password');
    await page.getByRole('button', { name: addin.signIn.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(addin.signIn.wrongCredentials);
    await page.getByLabel(addin.signIn.password).fill(plain.password);
    await page.getByRole('button', { name: addin.signIn.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(addin.errors.forbidden);

    const sender = await outlookUser(server);
    await signInPane(page, sender);
    const token = await page.evaluate(() => localStorage.getItem('kuvert.addin.sessionToken'));
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: addin.signOut }).click();
    await expect(page.getByRole('heading', { name: addin.signIn.title })).toBeVisible();
    const after = await fetch(`${server.url}${API_BASE}/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);

    await openPane(page, server, mailbox({ displayLanguage: 'de-DE', to: ['x@partner.test'] }));
    await expect(page.getByRole('heading', { name: addinDe.signIn.title })).toBeVisible();
  });

  test('read mode offers the delivery links of this server', async ({ page }) => {
    const { server } = holder;
    const link = `${server.url}/secumails/inbox/0b5c4c43-1b1a-4a55-9d39-6f1f1e0d1a11`;
    await openPane(page, server, { ...mailbox(), mode: 'read', body: `New delivery: ${link}\nOther: https://elsewhere.test/secumails/x` }, '?mode=read');
    await expect(page.getByRole('heading', { name: addin.read.title })).toBeVisible();
    await expect(page.getByRole('button', { name: addin.read.open })).toHaveCount(1);
  });
});
