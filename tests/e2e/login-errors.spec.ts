// Wrong credentials and the captcha escalation. Failures are counted per account and per
// address (every browser request comes from 127.0.0.1), so each test gets its own server.
import { addressedTo, extractVerificationCode, waitForMailboxMail } from '@tests/support/mailbox';
import { captchaAnswer, createUser, en, expect, expectInbox, serverPerFile, signIn, submitLogin, test, trackCaptchas } from './fixtures';

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
    await expect.poll(captchas.lastId).toBeTruthy();
    await expect(image).toHaveAttribute('src', /svg/);
    await page.getByLabel(en.auth.captcha.answer).fill(await captchaAnswer(server, captchas.lastId()!));
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
