// Wrong credentials and the captcha escalation. Failures are counted per account and per
// address (every browser request comes from 127.0.0.1), so each test gets its own server.
import { addressedTo, extractVerificationCode, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { api, basic, login } from '@tests/integration/escalation-helpers';
import { authenticatorFor, captchaAnswer, createUser, en, expect, expectInbox, serverPerFile, signIn, submitLogin, test, totpCodes, trackCaptchas } from './fixtures';

const ctx = serverPerFile('test');

test('a wrong password shows "invalid credentials" (SPEC §8, code 1) and stays on the login page', async ({ page }) => {
  const { server } = ctx;
  const alice = await createUser(server, { username: 'alice' });
  await signIn(page, server, { ...alice, password: 'not-her-password' });
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  expect(en.auth.errors.invalidCredentials).toBe('Invalid username or password.');
  await expect(page).toHaveURL(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  // The password is cleared for the next try, the username kept.
  await expect(page.getByLabel(/^Password/)).toHaveValue('');
  await expect(page.getByLabel(en.auth.login.username)).toHaveValue('alice');
});

test('after 3 failed attempts the captcha screen appears; a wrong answer is refused, the right one signs in', async ({ page }) => {
  const { server } = ctx;
  const captchas = trackCaptchas(page);
  const bob = await createUser(server, { username: 'bob' });
  await signIn(page, server, { ...bob, password: 'wrong-1' });
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  for (const password of ['wrong-2', 'wrong-3']) {
    await submitLogin(page, { ...bob, password });
    await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
    await expect(page).toHaveURL(`${server.url}/auth/login`);
  }

  // Fourth attempt, now with the right password: the server wants a captcha first.
  await submitLogin(page, bob);
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await expect(page.getByRole('heading', { name: en.auth.captcha.title })).toBeVisible();
  const image = page.getByRole('img', { name: en.auth.captcha.imageAlt });
  await expect(image).toBeVisible();
  await expect.poll(captchas.lastId).toBeTruthy();

  // A wrong answer: message, a new image.
  const firstId = captchas.lastId()!;
  const firstImage = await image.getAttribute('src');
  const firstAnswer = await captchaAnswer(server, firstId);
  await page.getByLabel(en.auth.captcha.answer).fill(`${firstAnswer}zz`);
  await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  await expect(page.getByText(en.auth.errors.wrongCaptcha)).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await expect.poll(captchas.lastId).not.toBe(firstId);
  await expect(image).not.toHaveAttribute('src', firstImage!);

  // "Show a new image" replaces it again.
  const secondId = captchas.lastId()!;
  const secondImage = await image.getAttribute('src');
  await page.getByRole('button', { name: en.auth.captcha.reload }).click();
  await expect.poll(captchas.lastId).not.toBe(secondId);
  // The page shows the new one (its id is what the sign-in sends).
  await expect(image).not.toHaveAttribute('src', secondImage!);

  // The right answer to the fresh image signs in.
  await expect(page.getByRole('button', { name: en.auth.captcha.submit })).toBeEnabled();
  await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, captchas.lastId()!));
  await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  await expectInbox(page, server);
});

test('behind the captcha, an unverified user gets through email verification (the code travels with the next captcha)', async ({ page }) => {
  const { server } = ctx;
  const captchas = trackCaptchas(page);
  const gina = await createUser(server, { username: 'gina', emailVerified: false });
  await signIn(page, server, { ...gina, password: 'wrong-1' });
  for (const password of ['wrong-2', 'wrong-3']) {
    await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
    await submitLogin(page, { ...gina, password });
  }
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  await submitLogin(page, gina);

  const image = page.getByRole('img', { name: en.auth.captcha.imageAlt });
  const solveCaptcha = async () => {
    await expect(page).toHaveURL(`${server.url}/auth/captcha`);
    await expect(image).toBeVisible();
    const id = await captchas.take();
    await expect(image).toHaveAttribute('src', /svg/);
    await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, id));
    await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  };
  await solveCaptcha();

  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(gina.email));
  await page.getByLabel(en.auth.verification.code).fill(extractVerificationCode(mail));
  await page.getByRole('button', { name: en.auth.verification.submit, exact: true }).click();
  // Every attempt after 3 failures needs a fresh captcha (server rule); the code is kept meanwhile.
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await solveCaptcha();
  await expectInbox(page, server);
});

test('behind the captcha, "send a new code" asks for a captcha, then mails a second code', async ({ page }) => {
  const { server } = ctx;
  const captchas = trackCaptchas(page);
  const hugo = await createUser(server, { username: 'hugo', emailVerified: false });
  await signIn(page, server, { ...hugo, password: 'wrong-1' });
  for (const password of ['wrong-2', 'wrong-3']) {
    await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
    await submitLogin(page, { ...hugo, password });
  }
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  await submitLogin(page, hugo);
  const solveCaptcha = async () => {
    await expect(page).toHaveURL(`${server.url}/auth/captcha`);
    // A fresh image for every captcha screen: wait for its id, not the last one solved.
    await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, await captchas.take()));
    await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  };
  await solveCaptcha();
  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);
  await waitForMailboxMail(server.mailboxDir, addressedTo(hugo.email));

  await page.getByRole('button', { name: en.auth.verification.resend }).click();
  // The resend is refused without a captcha answer: the captcha screen answers for it and comes back.
  await solveCaptcha();
  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);
  await expect(page.getByText(en.auth.verification.resent)).toBeVisible();
  await expect.poll(async () => (await readMailbox(server.mailboxDir)).filter(addressedTo(hugo.email)).length).toBe(2);
});

test('behind the captcha, a user with an authenticator app gets through the code screen', async ({ page }) => {
  const { server } = ctx;
  const captchas = trackCaptchas(page);
  const hal = await createUser(server, { username: 'hal' });
  // Registered beforehand over the API (registration, then a sign-in with a code).
  const registration = (await (await api(server, '/auth/totp/registration', { method: 'POST', authorization: basic(hal.username, hal.password) })).json()) as { secret: string };
  const codes = totpCodes(registration.secret);
  expect((await login(server, hal, { j_auth_app_code: codes.next() })).status).toBe(200);

  await signIn(page, server, { ...hal, password: 'wrong-1' });
  for (const password of ['wrong-2', 'wrong-3']) {
    await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
    await submitLogin(page, { ...hal, password });
  }
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  await submitLogin(page, hal);

  const image = page.getByRole('img', { name: en.auth.captcha.imageAlt });
  const solveCaptcha = async () => {
    await expect(page).toHaveURL(`${server.url}/auth/captcha`);
    await expect(image).toBeVisible();
    await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, await captchas.take()));
    await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  };
  await solveCaptcha();
  await expect(page).toHaveURL(`${server.url}/auth/totp-authentication`);
  await page.getByLabel(en.auth.totp.code).fill(codes.next());
  await page.getByRole('button', { name: en.auth.totp.submit, exact: true }).click();
  await solveCaptcha();
  await expectInbox(page, server);
});

// POST /auth/totp/registration honours the captcha rule too: the captcha screen answers for it,
// then once more for the sign-in with the first code.
test('behind the captcha, a user who must register an authenticator app can do so', async ({ page }) => {
  const { server } = ctx;
  const captchas = trackCaptchas(page);
  const ida = await createUser(server, { username: 'ida', totpRequired: true });
  await signIn(page, server, { ...ida, password: 'wrong-1' });
  for (const password of ['wrong-2', 'wrong-3']) {
    await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
    await submitLogin(page, { ...ida, password });
  }
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  await submitLogin(page, ida);
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, await captchas.take()));
  await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  // The registration call wants its own captcha.
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  const image = page.getByRole('img', { name: en.auth.captcha.imageAlt });
  const solveCaptcha = async () => {
    await expect(page).toHaveURL(`${server.url}/auth/captcha`);
    await expect(image).toBeVisible();
    const id = await captchas.take();
    const shown = await image.getAttribute('src');
    await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, id));
    expect(await image.getAttribute('src')).toBe(shown);
    await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  };
  await solveCaptcha();
  await expect(page).toHaveURL(`${server.url}/auth/totp-registration`);
  await expect(page.getByRole('img', { name: en.auth.totpRegistration.qrAlt })).toBeVisible();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  await page.getByLabel(en.auth.totp.code).fill(authenticatorFor(secret).generate());
  await page.getByRole('button', { name: en.auth.totpRegistration.submit }).click();
  // And the sign-in with the code: one more captcha, the code is kept meanwhile.
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await solveCaptcha();
  await expectInbox(page, server);
});

test('a throttled account (too many failed sign-ins) is told to wait, even with the right password, and stays on the login page', async ({ page }) => {
  const { server } = ctx;
  const tess = await createUser(server, { username: 'tess' });
  for (let i = 0; i < 5; i++) expect((await login(server, { username: 'tess', password: `wrong-${i}` })).status).toBe(401);
  // The delay is stored; moving it ahead instead of waiting keeps the test independent of time.
  await server.app.db.updateTable('login_throttles').set({ next_allowed_at: Date.now() + 10 * 60_000 }).execute();
  await signIn(page, server, tess);
  await expect(page.getByText(en.auth.errors.signInRateLimit)).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/auth/login`);
  // Passing the delay (the stored time moves back) lets her in; the captcha rule still applies after 5 failures.
  await server.app.db.updateTable('login_throttles').set({ next_allowed_at: 0 }).execute();
  const captchas = trackCaptchas(page);
  await submitLogin(page, tess);
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await expect.poll(captchas.lastId).toBeTruthy();
  await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, captchas.lastId()!));
  await page.getByRole('button', { name: en.auth.captcha.submit }).click();
  await expectInbox(page, server);
});
