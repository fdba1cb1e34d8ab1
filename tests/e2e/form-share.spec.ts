// The share dialog of a form (issue 16 §2, SPEC §2): share URL, copy, open in a new tab, the URL
// helper with the 'plain' switch and default values per custom field (the public page applies
// them), the iframe and script snippets; share and open are off while there are unsaved changes.
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { expect } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, test } from './fixtures';

let server: TestServer;
let form: Form;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const created = await apiCall(server, admin, 'POST', '/forms', {
    name: 'Support request',
    url: 'support-request',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [server.admin.email],
    customFields: [
      { name: 'Customer number', type: 'text', textAreaSize: 1 },
      { name: 'Topic', type: 'dropdown', options: ['Billing', 'Delivery'] },
      { name: 'Attachment', type: 'file', maxFileSizeKb: 100 },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  form = (await created.json()) as Form;
});
test.afterAll(async () => {
  await server?.close();
});

test('share URL, URL helper with plain and defaults, embed snippets; disabled while unsaved', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.goto(`${server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(server.admin.email);
  await page.getByLabel(/^Password/).fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/forms/${form.formUuid}`);
  await expect(page.getByRole('heading', { name: 'Form: Support request', level: 1 })).toBeVisible();

  // Unsaved changes: share and open wait for the save.
  const share = page.getByRole('button', { name: 'Share', exact: true });
  const openTab = page.getByRole('button', { name: 'Open in new tab' });
  await expect(share).toBeEnabled();
  await page.getByRole('textbox', { name: 'Name' }).fill('Support request (new)');
  await expect(share).toBeDisabled();
  await expect(openTab).toBeDisabled();
  await expect(page.getByText('Save your changes before sharing or opening the form.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Support request');
  await expect(share).toBeEnabled();

  // Open in new tab: the public page.
  const [tab] = await Promise.all([context.waitForEvent('page'), openTab.click()]);
  await expect(tab.getByRole('heading', { name: 'Support request' })).toBeVisible();
  expect(tab.url()).toBe(form.link);
  await tab.close();

  await share.click();
  const dialog = page.getByRole('dialog', { name: 'Share form' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Share URL' })).toHaveValue(form.link);
  await dialog.getByRole('button', { name: 'Copy: Share URL' }).click();
  await expect(page.getByText('Copied to the clipboard').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(form.link);

  // URL helper: plain and defaults (no default for a file field).
  await expect(dialog.getByRole('textbox', { name: 'Default for Attachment' })).toHaveCount(0);
  await dialog.getByRole('switch', { name: /Plain page/ }).check();
  await dialog.getByRole('textbox', { name: 'Default for Customer number' }).fill('K-42 & more');
  await dialog.getByRole('combobox', { name: 'Default for Topic' }).selectOption('Delivery');
  const expected = `${form.link}?plain=1&f.Customer+number=K-42+%26+more&f.Topic=Delivery`;
  await expect(dialog.getByRole('textbox', { name: 'URL with these choices' })).toHaveValue(expected);
  await expect(dialog.getByRole('textbox', { name: 'Iframe' })).toHaveValue(`<iframe src="${expected.replace(/&/g, '&amp;')}" title="Support request" style="width:100%;height:800px;border:0"></iframe>`);
  await expect(dialog.getByRole('textbox', { name: /^Script/ })).toHaveValue(
    `<script src="${server.url}/form-embed.js" data-form="support-request" data-query="plain=1&amp;f.Customer+number=K-42+%26+more&amp;f.Topic=Delivery" data-title="Support request"></script>`,
  );
  await dialog.getByRole('button', { name: 'Copy: URL with these choices' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  await expectNoSeriousA11yViolations(page, 'form share dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The public page applies the helper's URL: no header, the defaults filled in.
  const visitor = await page.context().browser()!.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(expected);
  await expect(visitorPage.getByRole('heading', { name: 'Support request' })).toBeVisible();
  await expect(visitorPage.getByRole('banner')).toHaveCount(0);
  await expect(visitorPage.getByRole('textbox', { name: 'Customer number' })).toHaveValue('K-42 & more');
  await expect(visitorPage.getByRole('combobox', { name: 'Topic' })).toHaveValue('Delivery');
  // Without plain the header is there.
  await visitorPage.goto(form.link);
  await expect(visitorPage.getByRole('banner')).toHaveCount(1);
  await visitor.close();
});
