// Form administration in the web client against the real server: a forms administrator
// (ROLE_SECUFORMS) creates a form from a built-in template, changes its subject template and its
// layout (seen in the live preview), and reads both changes on the History tab. axe on every new
// screen.
import { expect, type Page } from '@playwright/test';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'tom.templates@example.test', password: PASSWORD };

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', {
    ...builder,
    firstName: 'Tom',
    lastName: 'Templates',
    language: 'en',
    licensed: true,
    roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'],
  });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, builder.email, builder.password);
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

test('a form from a template; subject template and layout changed; the History tab shows who changed what', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Forms' }).first().click();
  await page.getByRole('button', { name: 'New from template' }).click();
  await expect(page.getByRole('heading', { name: 'Form templates', level: 1 })).toBeVisible();
  await expect(page.getByText('Name, Email, Topic, Message')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form templates');

  await page.getByRole('button', { name: 'Use template Contact request' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Create form' }).click();
  await expect(dialog.getByText('Field is required').first()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Customer contact');
  await dialog.getByRole('textbox', { name: /^URL/ }).fill('customer-contact');
  await expectNoSeriousA11yViolations(page, 'create from template dialog');
  await dialog.getByRole('button', { name: 'Create form' }).click();
  await expect(page.getByRole('heading', { name: 'Form: Customer contact', level: 1 })).toBeVisible();

  // Options: the template's subject template, changed; an unknown placeholder is refused first
  // (a draft may name a field created later — refused only when published, issue 33 §2 — but not
  // a placeholder of an unknown kind).
  const subject = page.getByRole('textbox', { name: 'Subject template' });
  await expect(subject).toHaveValue('Contact request: {field:Topic} from {field:Name}');
  await subject.fill('{formName}: {nope}');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The template contains an unknown placeholder')).toBeVisible();
  await subject.fill('{formName} from {field:Name} on {date}');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();

  // Layout: colour and dark theme, seen in the live preview before saving.
  await page.getByRole('tab', { name: 'Layout' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: 'Customer contact' })).toBeVisible();
  await expect(preview.getByRole('textbox', { name: /Message/ })).toBeVisible();
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#0b6a0b');
  await page.getByRole('switch', { name: 'Dark theme' }).check();
  await expect(preview.getByRole('button', { name: 'Submit' })).toHaveCSS('background-color', 'rgb(11, 106, 11)');
  await expectNoSeriousA11yViolations(page, 'form layout with preview');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();

  // History: newest first, with who and what.
  await page.getByRole('tab', { name: 'History' }).click();
  const table = page.getByRole('table', { name: 'History' });
  await expect(table.getByRole('row')).toHaveCount(4);
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('Changed');
  await expect(rows.nth(1)).toContainText(builder.email);
  await expect(rows.nth(1)).toContainText('Appearance');
  await expect(rows.nth(2)).toContainText('Subject template: Contact request: {field:Topic} from {field:Name} → {formName} from {field:Name} on {date}');
  await expect(rows.nth(3)).toContainText('Created');
  await expectNoSeriousA11yViolations(page, 'form history');
});
