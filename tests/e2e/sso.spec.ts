// Single sign-on by OpenID Connect against a real provider in-process (DESIGN §9): the SSO
// button shows only when configured, a known address signs in and lands on the deep-link
// target, an unknown one comes back to the login page with "single sign-on failed".
import { expect } from '@playwright/test';
import { test } from './fixtures';
import en from '../../locales/en/auth.json' with { type: 'json' };
import { startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { startTestServer, type TestServer } from '../support/server';

let provider: TestOidcProvider;
let server: TestServer;
let plainServer: TestServer;

test.beforeAll(async () => {
  provider = await startTestOidcProvider();
  server = await startTestServer({ config: { oidcIssuer: provider.issuer, oidcClientId: provider.clientId, oidcClientSecret: provider.clientSecret } });
  provider.registerRedirectUri(`${server.url}/webui/sso/callback`);
  plainServer = await startTestServer();
});

test.afterAll(async () => {
  await Promise.all([server?.close(), plainServer?.close()]);
  await provider?.close();
});

async function signInAtProvider(page: import('@playwright/test').Page, login: string) {
  await page.getByRole('button', { name: en.login.sso }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The development provider asks for consent once per client and account.
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('no SSO button when single sign-on is not configured', async ({ page }) => {
  await page.goto(`${plainServer.url}/auth/login`);
  await expect(page.getByRole('button', { name: en.login.submit })).toBeVisible();
  await expect(page.getByRole('button', { name: en.login.sso })).toHaveCount(0);
});

test('a known address signs in through the provider and reaches the deep-link target', async ({ page }) => {
  await page.goto(`${server.url}/settings`);
  await expect(page).toHaveURL(/\/auth\/login\?continue=%2Fsettings/);
  await signInAtProvider(page, server.admin.email);
  await expect(page).toHaveURL(`${server.url}/settings`);
  // Signed in for real: the session works for state-changing calls too (anti-forgery value from GET /user,
  // which may still be on its way when the URL has changed: wait for it).
  await expect.poll(() => page.evaluate(() => localStorage.getItem('anticsrfattr'))).toBeTruthy();
  const status = await page.evaluate(async () => {
    const csrf = localStorage.getItem('anticsrfattr') ?? '';
    const res = await fetch('/api/2/user/updateLoggedInUser', {
      method: 'POST',
      headers: { 'content-type': 'application/json', anticsrfattr: csrf },
      body: JSON.stringify({ user: { language: 'en' } }),
    });
    return res.status;
  });
  expect(status).toBe(200);
});

test('an address without an account comes back with "single sign-on failed"', async ({ page }) => {
  await page.goto(`${server.url}/auth/login`);
  await signInAtProvider(page, 'nobody@example.test');
  await expect(page).toHaveURL(/\/auth\/login\?sso=failed/);
  await expect(page.getByText(en.errors.ssoFailed)).toBeVisible();
});
