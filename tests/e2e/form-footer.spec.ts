// The form footer against the real server: a forms administrator enables the footer in the
// Layout tab (a javascript: link is refused before saving) and saves; a visitor sees the imprint
// and privacy links at the bottom of the public page and of its success page, each opening in a
// new tab without opener or referrer. axe on the Layout tab and the public page.
import { expect, type Page } from '@playwright/test';
import type { Form } from '@shared/contract/forms';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, type ApiSession, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.footer@example.test', password: PASSWORD };
const recipient = { email: 'rudi.footer@example.test', password: PASSWORD };

let server: TestServer;
let builderApi: ApiSession;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const [user, roleNames] of [
    [builder, ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS']],
    [recipient, ['ROLE_UI_USER', 'ROLE_RECEIVER']],
  ] as const) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { ...user, firstName: 'E2e', lastName: 'User', language: 'en', licensed: true, roleNames });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, user.email, user.password);
  }
  builderApi = await apiSignIn(server, builder);
});
test.afterAll(async () => {
  await server?.close();
});

async function signIn(page: Page) {
  await page.goto(`${server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(builder.email);
  await page.getByLabel(/^Password/).fill(builder.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

test('the administrator sets footer links in the Layout tab; the visitor sees them on the public and the success page', async ({ page, browser }) => {
  await signIn(page);
  await page.goto(`${server.url}/forms/new`);
  await page.getByRole('textbox', { name: 'Name' }).fill('Footed request');
  await page.getByRole('textbox', { name: /^URL/ }).fill('footed-request');
  await page.getByRole('textbox', { name: 'Mandatory recipients' }).fill(recipient.email);
  await page.getByRole('tab', { name: 'Layout' }).click();
  const footer = page.getByRole('region', { name: 'Footer' });
  await footer.getByRole('checkbox', { name: 'Show footer links' }).check();
  await footer.getByRole('textbox', { name: 'Imprint link' }).fill('javascript:alert(1)');
  await footer.getByRole('textbox', { name: 'Privacy policy link' }).fill('https://example.test/privacy');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(footer.getByText('Please enter a valid link (http or https)')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form footer in the Layout tab');
  await footer.getByRole('textbox', { name: 'Imprint link' }).fill('https://example.test/imprint');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();

  const list = (await (await apiCall(server, builderApi, 'GET', '/forms')).json()) as { items: Array<{ formUuid: string; name: string }> };
  const saved = (await (await apiCall(server, builderApi, 'GET', `/forms/${list.items.find((f) => f.name === 'Footed request')!.formUuid}`)).json()) as Form;
  expect(saved.layout.footer).toEqual({ enabled: true, imprintUrl: 'https://example.test/imprint', privacyUrl: 'https://example.test/privacy', supportUrl: '' });
  const activated = await apiCall(server, builderApi, 'PUT', `/forms/${saved.formUuid}`, {
    ...Object.fromEntries(Object.entries(saved).filter(([key]) => !['formUuid', 'createdBy', 'createdAt', 'updatedAt', 'link'].includes(key))),
    active: true,
    customFields: [{ name: 'Note', type: 'text', required: true, textAreaSize: 1 }],
  });
  expect(activated.status, await activated.clone().text()).toBe(200);

  const visitor = await browser.newContext({ locale: 'en-GB' });
  const publicPage = await visitor.newPage();
  await publicPage.goto(`${server.url}/form/${saved.url}`);
  const links = publicPage.getByRole('navigation', { name: 'Legal and support' });
  await expect(links.getByRole('link')).toHaveCount(2);
  for (const [name, href] of [
    ['Imprint', 'https://example.test/imprint'],
    ['Privacy policy', 'https://example.test/privacy'],
  ] as const) {
    const link = links.getByRole('link', { name });
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expectNoSeriousA11yViolations(publicPage, 'public form with footer');
  await publicPage.getByRole('textbox', { name: /Note/ }).fill('Hello');
  await publicPage.getByRole('button', { name: 'Submit' }).click();
  await expect(publicPage.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await expect(publicPage.getByRole('navigation', { name: 'Legal and support' }).getByRole('link', { name: 'Imprint' })).toBeVisible();
  await visitor.close();
});
