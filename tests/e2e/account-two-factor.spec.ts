// Two-factor authentication from the account settings (issue 13 item 17, issue 12 §1): a user turns
// it on (password, QR code and manual key, a code of the app), is asked for a code at the next
// sign-in, and removes it again with re-authentication (password and a current code). Real
// server, real Chromium; codes come from the manual key, computed like an app does.
import { createUser, en, expect, expectInbox, expectNoSeriousA11yViolations, serverPerFile, signIn, test, totpCodes } from './fixtures';

const ctx = serverPerFile();
const twoFactor = en.settings.twoFactor;

test('a user sets up an authenticator app in the account settings, signs in with a code, and removes it with password and code', async ({ page }) => {
  // Three sign-ins and two dialogs on a shared 2-core machine.
  test.setTimeout(180_000);
  const { server } = ctx;
  const tara = await createUser(server, { username: 'tara' });
  await signIn(page, server, tara);
  await expectInbox(page, server);
  await page.goto(`${server.url}/settings`);
  const section = page.getByRole('region', { name: twoFactor.title });
  await expect(section.getByText(twoFactor.disabled)).toBeVisible();

  // Set up: the password first (required, then a wrong one is refused at its field).
  await section.getByRole('button', { name: twoFactor.setup }).click();
  const setup = page.getByRole('dialog', { name: twoFactor.setupTitle });
  await expect(setup.getByText(twoFactor.setupIntro)).toBeVisible();
  await setup.getByRole('button', { name: twoFactor.setupContinue }).click();
  await expect(setup.getByText(en.common.validation.required)).toBeVisible();
  await setup.getByLabel(/^Current password/).fill('not-my-password');
  await setup.getByRole('button', { name: twoFactor.setupContinue }).click();
  await expect(setup.getByText(en.settings.password.currentWrong)).toBeVisible();
  await setup.getByLabel(/^Current password/).fill(tara.password);
  await setup.getByLabel(/^Current password/).press('Enter');

  // QR code and manual key; a wrong code is refused, the app's code turns it on.
  const qr = setup.getByRole('img', { name: en.auth.totpRegistration.qrAlt });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  const secret = ((await setup.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoSeriousA11yViolations(page, 'two-factor setup dialog');
  // Each code is accepted once per 30 s step: each next() is of a step not handed out yet.
  const codes = totpCodes(secret);
  const now = codes.next();
  await setup.getByLabel(en.auth.totp.code).fill(String((Number(now) + 500_000) % 1_000_000).padStart(6, '0'));
  await setup.getByRole('button', { name: twoFactor.setupConfirm }).click();
  await expect(setup.getByText(en.auth.errors.invalidAuthCode)).toBeVisible();
  await setup.getByLabel(en.auth.totp.code).fill(now);
  await setup.getByRole('button', { name: twoFactor.setupConfirm }).click();
  // Fluent's toaster also announces the text in a live region, hence first().
  await expect(page.getByText(twoFactor.setupDone).first()).toBeVisible();
  await expect(setup).toBeHidden();
  await expect(section.getByText(twoFactor.enabled)).toBeVisible();

  // The next sign-in asks for a code.
  await page.context().clearCookies();
  await signIn(page, server, tara);
  await expect(page).toHaveURL(`${server.url}/auth/totp-authentication`);
  await page.getByLabel(en.auth.totp.code).fill(codes.next());
  await page.getByRole('button', { name: en.auth.totp.submit, exact: true }).click();
  await expectInbox(page, server);

  // Removal: the confirmation asks for the password and a current code; cancel keeps the app.
  await page.goto(`${server.url}/settings`);
  await section.getByRole('button', { name: twoFactor.reset }).click();
  let reset = page.getByRole('dialog', { name: twoFactor.confirmTitle });
  await expect(reset.getByText(twoFactor.confirmText)).toBeVisible();
  await reset.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(reset).toBeHidden();
  await expect(section.getByText(twoFactor.enabled)).toBeVisible();

  await section.getByRole('button', { name: twoFactor.reset }).click();
  reset = page.getByRole('dialog', { name: twoFactor.confirmTitle });
  await reset.getByRole('button', { name: twoFactor.reset }).click();
  await expect(reset.getByText(en.common.validation.required).first()).toBeVisible();
  await reset.getByLabel(/^Current password/).fill(tara.password);
  await reset.getByLabel(en.auth.totp.code).fill('000000' === now ? '111111' : '000000');
  await reset.getByRole('button', { name: twoFactor.reset }).click();
  await expect(reset.getByText(en.auth.errors.invalidAuthCode)).toBeVisible();
  // Keyboard only: Enter in the code field submits.
  await reset.getByLabel(en.auth.totp.code).fill(codes.next());
  await reset.getByLabel(en.auth.totp.code).press('Enter');
  await expect(page.getByText(twoFactor.resetDone).first()).toBeVisible();
  await expect(section.getByText(twoFactor.disabled)).toBeVisible();
  await expect(section.getByRole('button', { name: twoFactor.setup })).toBeVisible();

  // Signing in asks for no code any more.
  await page.context().clearCookies();
  await signIn(page, server, tara);
  await expectInbox(page, server);
});
