import { describe, expect, it } from 'vitest';
import { LANGUAGES, SECURITY_LEVELS } from '@shared/contract/constants';
import { MAIL_TEMPLATES, renderMail, type MailTemplateData, type MailTemplateName } from './templates';

const SAMPLE: MailTemplateData = {
  accountVerificationCode: { code: '042917', validMinutes: 15 },
  passwordResetLink: { link: 'https://kuvert.example/auth/reset-password?token=abc&x=<b>', validMinutes: 60 },
  passwordChanged: { changedAt: '2026-11-22 09:00' },
  userInvitation: { link: 'https://kuvert.example/auth/reset-password?token=abc&x=<b>', validDays: 7, inviterName: 'Ada <Lovelace>' },
  signupExistingAccount: { loginLink: 'https://kuvert.example/auth/login', resetLink: 'https://kuvert.example/auth/request-reset-password' },
  signInAttempts: { failures: 10, address: '203.0.113.7', at: '2026-11-22 09:00' },
  secupassReset: { resetAt: '2026-11-22 09:00', link: 'https://kuvert.example/?x=<b>' },
  newDelivery: {
    senderName: 'Ada <Lovelace>',
    senderEmail: 'ada@example.test',
    subject: 'Q3 <b>figures</b>',
    link: 'https://kuvert.example/secumails/en/download?deliveryUuid=d1#token=abc',
    level: SECURITY_LEVELS.LEVEL_1,
    fileCount: 2,
    expiresOn: '2027-02-20',
  },
  e2eInvitation: { senderName: 'Ada <Lovelace>', senderEmail: 'ada@example.test', subject: 'Q3 <b>figures</b>', link: 'https://kuvert.example/secumails/inbox/d1', registered: false },
  releaseNeeded: { recipient: 'bob@example.test', subject: 'Q3 <b>figures</b>', link: 'https://kuvert.example/secumails/release' },
  deliveryReleased: { senderName: 'Ada <Lovelace>', subject: 'Q3 <b>figures</b>', link: 'https://kuvert.example/secumails/inbox/d1' },
  downloadReceipt: { recipient: 'bob@example.test', subject: 'Q3 <b>figures</b>', fileName: 'a.pdf', link: 'https://kuvert.example/secumails/outbox/d1' },
  deliveryBlocked: { subject: 'Q3 <b>figures</b>', reason: 'virus', link: 'https://kuvert.example/secumails/outbox' },
  submitTicket: { ownerName: 'Ada <Lovelace>', link: 'https://kuvert.example/submit/ticket/abc?x=<b>', validDays: 7 },
  submitGuestTicket: { ownerName: 'Ada <Lovelace>', subject: 'Your <b>claim</b> documents', message: 'Please send the <b>invoice</b>.', link: 'https://kuvert.example/submit/ticket#ticket=abc&x=<b>', expiresOn: '2026-12-10' },
  formConfirmation: { formName: 'Contact <b>request</b>', text: 'Thank you.\n\nWe answer <soon>.', date: '2026-11-25' },
  roomRequest: { requesterName: 'Ada <Lovelace>', requesterEmail: 'ada@example.test', roomName: 'Deals <b>2026</b>', folderName: 'Inbound', message: 'Please send <b>it</b>', link: 'https://kuvert.example/secumails/send?dar=abc', expiresOn: '2026-12-10', signup: true },
  roomRequestAnswered: { senderEmail: 'bob@example.test', roomName: 'Deals <b>2026</b>', folderName: null, fileCount: 2, link: 'https://kuvert.example/datarooms/r1' },
  roomInvitation: { inviterName: 'Ada <Lovelace>', roomName: 'Deals <b>2027</b>', role: 'EDITOR', link: 'https://kuvert.example/auth/dataroom-signup?token=abc&x=<b>', validDays: 14 },
  roomAdded: { actorName: 'Ada <Lovelace>', roomName: 'Deals <b>2028</b>', role: 'VIEWER', link: 'https://kuvert.example/datarooms/r1' },
  roomKeyWaiting: { memberName: 'Bob <b>', memberEmail: 'bob@example.test', link: 'https://kuvert.example/secure-rooms/r1' },
  roomKeyGranted: { actorName: 'Ada <Lovelace>', link: 'https://kuvert.example/secure-rooms/r1' },
  roomRequestNotPlaced: { senderEmail: 'bob@example.test', roomName: 'Deals <b>2026</b>', folderName: 'In<b>bound</b>', fileCount: 3, placed: 1, link: 'https://kuvert.example/secumails/inbox/d1' },
};

describe('mail templates', () => {
  const names = Object.keys(MAIL_TEMPLATES) as MailTemplateName[];

  it.each(names.flatMap((name) => LANGUAGES.map((lang) => [name, lang] as const)))('%s renders in %s', (name, lang) => {
    const mail = renderMail(name, lang, SAMPLE[name] as never);
    expect(mail.subject.length).toBeGreaterThan(5);
    expect(mail.text.length).toBeGreaterThan(20);
    expect(mail.html).toMatch(new RegExp(`^<!doctype html><html lang="${lang}">`));
    expect(mail.html).not.toMatch(/<b>/);
  });

  it.each(names.flatMap((name) => LANGUAGES.map((lang) => [name, lang] as const)))('%s in %s names the organisation, never the product, also in the signature', (name, lang) => {
    const organisation = 'Muster & Söhne <AG>';
    const mail = renderMail(name, lang, SAMPLE[name] as never, organisation);
    expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain('Kuvert');
    expect(mail.text.endsWith(`\n-- \n${organisation}\n`)).toBe(true);
    expect(mail.html).toContain('<p style="color:#777777">Muster &amp; Söhne &lt;AG&gt;</p></body>');
    expect(mail.html).not.toContain(organisation);
    // The templates that named the product name the organisation instead (subject or body).
    expect(`${mail.subject}\n${mail.text}`.split(organisation).length).toBeGreaterThan(2);
  });

  it('falls back to the product name without an organisation', () => {
    expect(renderMail('passwordChanged', 'en', SAMPLE.passwordChanged).subject).toBe('Kuvert: your password was changed');
    expect(renderMail('passwordChanged', 'en', SAMPLE.passwordChanged, '  ').text.endsWith('\n-- \nKuvert\n')).toBe(true);
  });

  it('subjects differ per language', () => {
    for (const name of names) {
      const subjects = new Set(LANGUAGES.map((lang) => renderMail(name, lang, SAMPLE[name] as never).subject));
      expect(subjects.size).toBe(LANGUAGES.length);
    }
  });

  it('puts the data in both parts, escaped in HTML only', () => {
    const reset = renderMail('passwordResetLink', 'en', SAMPLE.passwordResetLink);
    expect(reset.text).toContain(SAMPLE.passwordResetLink.link);
    expect(reset.html).toContain('href="https://kuvert.example/auth/reset-password?token=abc&amp;x=&lt;b&gt;"');
    const code = renderMail('accountVerificationCode', 'de', SAMPLE.accountVerificationCode);
    expect(code.text).toMatch(/^042917$/m);
    expect(code.html).toContain('<p>042917</p>');
  });

  it('puts the delivery link (with its token) and the escaped subject into the new-delivery mail', () => {
    for (const lang of LANGUAGES) {
      const mail = renderMail('newDelivery', lang, SAMPLE.newDelivery);
      expect(mail.text).toContain(SAMPLE.newDelivery.link);
      expect(mail.html).toContain('#token=abc');
      expect(mail.html).toContain('Q3 &lt;b&gt;figures&lt;/b&gt;');
    }
    const level2 = renderMail('newDelivery', 'en', { ...SAMPLE.newDelivery, level: SECURITY_LEVELS.LEVEL_2, expiresOn: null, fileCount: 1 });
    expect(level2.text).toMatch(/Sign in/);
    expect(level2.text).toMatch(/permanently/);
    const signup = renderMail('newDelivery', 'en', { ...SAMPLE.newDelivery, level: SECURITY_LEVELS.LEVEL_2, signup: true });
    expect(signup.text).toMatch(/create a Kuvert account/);
    expect(signup.text).not.toMatch(/Sign in/);
    const encrypted = renderMail('newDelivery', 'en', { ...SAMPLE.newDelivery, level: SECURITY_LEVELS.LEVEL_3 });
    expect(encrypted.text).toMatch(/end-to-end encrypted/);
    expect(renderMail('newDelivery', 'en', SAMPLE.newDelivery).text).toMatch(/The link is personal/);
  });
});

describe('mail theme', () => {
  it('puts the theme colour on the header bar and the button, text by the luminance rule, the logo by content id', () => {
    const dark = renderMail('passwordResetLink', 'en', SAMPLE.passwordResetLink, 'ACME', { color: '#336699', logo: true });
    expect(dark.html).toContain('<div data-kuvert-brand style="background:#336699;');
    expect(dark.html).toContain('<img src="cid:logo@kuvert" alt="ACME"');
    expect(dark.html).toContain('background:#336699;color:#FFFFFF;text-decoration:none');
    const light = renderMail('passwordResetLink', 'en', SAMPLE.passwordResetLink, 'ACME', { color: '#eedd88', logo: false });
    expect(light.html).toContain('background:#EEDD88;color:#000000;text-decoration:none');
    expect(light.html).toContain('<span style="color:#000000;font-size:18px;font-weight:600">ACME</span>');
    // Whatever is stored, only a hex colour reaches the style attribute.
    expect(renderMail('passwordResetLink', 'en', SAMPLE.passwordResetLink, 'ACME', { color: 'red;x:expression(1)', logo: false }).html).not.toContain('expression');
  });
});
