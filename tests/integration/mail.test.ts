import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, SECURITY_LEVELS } from '@shared/contract/constants';
import { createMailer, MailDeliveryError } from '@server/mail/mailer';
import { listMailboxMessages } from '@server/mail/mailbox-folder';
import { startTestSmtpServer, type TestSmtpServer } from '@tests/support/smtp';
import { extractLink, extractVerificationCode, readMailbox } from '@tests/support/mailbox';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '@tests/support/server';
import { SETTING_KEYS } from '@shared/contract/settings';
import { sendDelivery } from '@shared/transfer';
import type { ParsedMail } from 'mailparser';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings } from './core-helpers';
import { sessionClient } from './e2e-helpers';

const requestPasswordReset = (url: string, email: string) =>
  fetch(`${url}/api/2/auth/password-reset/request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });

const SUBJECT_WORDS = { de: 'Bestätigungscode', en: 'verification code', fr: 'code de vérification' } as const;

describe('mail through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  let dataDir: string;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    dataDir = await mkdtemp(join(tmpdir(), 'kuvert-mail-'));
  });
  afterAll(async () => {
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(LANGUAGES)('arrives parsed in %s with a text and an HTML part', async (language) => {
    const mailer = createMailer({ dataDir, smtpUrl: smtp.url, retryBaseDelayMs: 10 });
    const to = `user-${language}@example.test`;
    await mailer.send({ to, template: 'accountVerificationCode', language, data: { code: '123456', validMinutes: 15 } });
    const mail = await smtp.waitForMail((m) => m.to !== undefined && JSON.stringify(m.to).includes(to));
    expect(mail.subject).toContain(SUBJECT_WORDS[language]);
    expect(mail.text).toMatch(/^123456$/m);
    expect(mail.html).toContain('<p>123456</p>');
    expect(mail.html).toContain(`lang="${language}"`);
    expect(mailer.transport).toBe('smtp');
    expect(await mailer.activeTransport()).toBe('smtp');
    await mailer.close();
  });

  it('escapes data in the HTML part', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: smtp.url });
    const link = 'http://kuvert.test/auth/reset-password?token=a&b="<script>"';
    await mailer.send({ to: 'escape@example.test', template: 'passwordResetLink', language: 'en', data: { link, validMinutes: 60 } });
    const mail = await smtp.waitForMail((m) => JSON.stringify(m.to).includes('escape@example.test'));
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain(link);
    await mailer.close();
  });

  it('retries temporary failures, then gives a clear error', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: smtp.url, maxAttempts: 3, retryBaseDelayMs: 10 });
    smtp.failNext(2);
    await mailer.send({ to: 'retry@example.test', template: 'passwordChanged', language: 'de', data: { changedAt: '2026-11-22 09:00' } });
    const mail = await smtp.waitForMail((m) => JSON.stringify(m.to).includes('retry@example.test'));
    expect(mail.subject).toContain('Passwort');

    smtp.failNext(3);
    const failing = mailer.send({ to: 'fail@example.test', template: 'passwordChanged', language: 'en', data: { changedAt: 'now' } });
    await expect(failing).rejects.toBeInstanceOf(MailDeliveryError);
    await expect(failing).rejects.toThrow(/passwordChanged.*3 attempt/);
    await mailer.close();
  });

  it('fails clearly when no SMTP server listens', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: 'smtp://127.0.0.1:1', maxAttempts: 2, retryBaseDelayMs: 10 });
    await expect(
      mailer.send({ to: 'x@example.test', template: 'passwordChanged', language: 'en', data: { changedAt: 'now' } }),
    ).rejects.toThrow(/could not be sent after 2 attempt/);
    await mailer.close();
  });
});

describe('mail to the local mailbox folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kuvert-mailbox-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('writes one parseable .eml per mail (and no temp files) in each language', async () => {
    const mailer = createMailer({ dataDir });
    expect(mailer.transport).toBe('mailbox');
    for (const language of LANGUAGES) {
      await mailer.send({
        to: `reset-${language}@example.test`,
        template: 'passwordResetLink',
        language,
        data: { link: `http://kuvert.test/auth/reset-password?token=tok-${language}`, validMinutes: 60 },
      });
    }
    await mailer.send({ to: 'code@example.test', template: 'accountVerificationCode', language: 'fr', data: { code: '654321', validMinutes: 15 } });

    const folder = mailer.mailboxFolder!;
    const files = await readdir(folder);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const mails = await readMailbox(folder);
    expect(mails).toHaveLength(4);
    for (const language of LANGUAGES) {
      const mail = mails.find((m) => m.to.includes(`reset-${language}@`))!;
      expect(mail.html).toContain('reset-password?token=tok-');
      expect(extractLink(mail, '/auth/reset-password').searchParams.get('token')).toBe(`tok-${language}`);
    }
    expect(mails.find((m) => m.subject.includes('Kuvert') && m.to.includes('code@'))!.subject).toBe('Votre code de vérification Kuvert');
    expect(extractVerificationCode(mails.find((m) => m.to.includes('code@'))!)).toBe('654321');

    const listed = await listMailboxMessages(folder);
    expect(listed).toHaveLength(4);
    expect(listed[0]!.to).toBe('code@example.test');
    expect(listed[0]!.text).toContain('654321');
    await mailer.close();
  });
});

describe('the running server picks its transport', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp.close());

  /** The development mailbox as an administrator sees it (everyone else is refused anyway). */
  const mailboxStatus = async (server: TestServer) => {
    const admin = await signInAdmin(server);
    return (await fetch(`${server.url}/dev/mailbox`, { headers: { cookie: admin.cookie } })).status;
  };

  const requestReset = (url: string, email: string) =>
    fetch(`${url}/api/2/auth/password-reset/request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });

  it('SMTP_URL: mail goes to the SMTP server and the development mailbox is gone', async () => {
    const server = await startTestServer({ config: { smtpUrl: smtp.url } });
    try {
      expect((await requestReset(server.url, server.admin.email)).status).toBe(204);
      const mail = await smtp.waitForMail((m) => JSON.stringify(m.to).includes(server.admin.email));
      expect(mail.text).toContain(`${server.url}/auth/reset-password#token=`);
      expect(await mailboxStatus(server)).toBe(404);
      expect(await readMailbox(server.mailboxDir)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("the wizard's SMTP choice (settings) switches from the mailbox folder to SMTP, with its sender", async () => {
    const server = await startTestServer();
    try {
      expect(await mailboxStatus(server)).toBe(200);
      await server.app.settings.set({
        [SETTING_KEYS.mailTransport]: 'smtp',
        [SETTING_KEYS.mailSmtpUrl]: smtp.url,
        [SETTING_KEYS.mailFrom]: 'Org <mail@org.example>',
      });
      expect((await requestReset(server.url, server.admin.email)).status).toBe(204);
      const mail = await smtp.waitForMail((m) => JSON.stringify(m.to).includes(server.admin.email) && m.from?.text.includes('org.example') === true);
      expect(mail.from?.text).toContain('mail@org.example');
      expect(await mailboxStatus(server)).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('the organisation name (System settings) in every mail', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp.close());
  const ORGANISATION = 'Muster & Söhne AG';
  const to = (address: string) => (m: ParsedMail) => JSON.stringify(m.to).includes(address);

  it('is the sender name, the signature and the name in the texts, set by the administrator through the System settings', async () => {
    const server = await startTestServer({ config: { smtpUrl: smtp.url } });
    try {
      const admin = await signInAdmin(server);
      // Before: the product's name.
      expect((await requestPasswordReset(server.url, server.admin.email)).status).toBe(204);
      const before = await smtp.waitForMail(to(server.admin.email));
      expect(before.from?.value).toEqual([{ address: 'no-reply@kuvert.localhost', name: 'Kuvert' }]);
      expect(before.text).toMatch(/\n-- \nKuvert\n?$/);

      // A user may not change it; the administrator does, as the System page does.
      const alice = await createUserAsAdmin(server, admin, { email: 'alice.org@example.test', language: 'de' }, { prove: false });
      // Mail goes by SMTP here: the owner reads the code there.
      await proveAddress(server, alice.email, alice.password, async () => (await smtp.waitForMail(to(alice.email))).text ?? '');
      const aliceSession = await signIn(server, alice.email, alice.password);
      await expectBackendError(await call(server, aliceSession, 'PUT', '/api/2/admin/settings', { [SETTING_KEYS.organisationName]: 'Evil Corp' }), 403);
      await updateSettings(server, admin, { [SETTING_KEYS.organisationName]: ORGANISATION });

      // A password reset (English) and a delivery (German recipient of a level-1 delivery): both in the organisation's name.
      smtp.received.length = 0;
      expect((await requestPasswordReset(server.url, server.admin.email)).status).toBe(204);
      const { client } = sessionClient(server, aliceSession);
      const sent = await sendDelivery({
        client,
        draft: { recipients: ['erika.extern@example.test'], subject: 'Quartalszahlen', body: 'Anbei.', securityLevel: SECURITY_LEVELS.LEVEL_1, language: 'de' },
        files: [{ name: 'zahlen.txt', blob: new Blob(['1,2,3']) }],
      });
      expect(sent.ok, JSON.stringify(!sent.ok && sent.error)).toBe(true);
      for (const mail of [await smtp.waitForMail(to(server.admin.email)), await smtp.waitForMail(to('erika.extern@example.test'))]) {
        expect(mail.from?.value).toEqual([{ address: 'no-reply@kuvert.localhost', name: ORGANISATION }]);
        expect(mail.text).toMatch(new RegExp(`\\n-- \\n${ORGANISATION}\\n?$`));
        expect(mail.html).toContain('<p style="color:#777777">Muster &amp; Söhne AG</p>');
        expect(`${mail.subject ?? ''} ${mail.text ?? ''} ${typeof mail.html === 'string' ? mail.html : ''}`).not.toContain('Kuvert');
      }
      const delivery = await smtp.waitForMail(to('erika.extern@example.test'));
      expect(delivery.text).toContain(`über ${ORGANISATION}`);

      // A sender address with its own display name is the administrator's choice and stays.
      await updateSettings(server, admin, { [SETTING_KEYS.mailFrom]: 'Poststelle <post@muster.example>' });
      smtp.received.length = 0;
      expect((await requestPasswordReset(server.url, server.admin.email)).status).toBe(204);
      const own = await smtp.waitForMail(to(server.admin.email));
      expect(own.from?.value).toEqual([{ address: 'post@muster.example', name: 'Poststelle' }]);
      expect(own.subject).toBe(`${ORGANISATION}: reset your password`);
    } finally {
      await server.close();
    }
  });
});
