// Process pages of web forms against the real server: a forms administrator splits a form into
// pages in the Custom fields tab (add, rename, reorder, delete a page with fields → they move to
// the chosen page) and saves; a visitor fills a two-page form step by step (Next with an empty
// required field shows the error and stays, Enter goes on instead of submitting, Back keeps the
// values and the chosen file, the last step has disclaimer and Submit); a German browser sees the translated step
// titles and field labels. axe on each new screen.
import { expect, type Page } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, locale, type ApiSession, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'paula.pages@example.test', password: PASSWORD };
const recipient = { email: 'rita.pages@example.test', password: PASSWORD };
const de = locale<typeof import('@locales/de/forms.json')>('de', 'forms');

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

test('the administrator adds, renames, reorders and deletes process pages and puts fields on them', async ({ page }) => {
  await signIn(page);
  await page.goto(`${server.url}/forms/new`);
  await page.getByRole('textbox', { name: 'Name' }).fill('Paged request');
  await page.getByRole('textbox', { name: /^URL/ }).fill('paged-request');
  await page.getByRole('textbox', { name: 'Mandatory recipients' }).fill(recipient.email);
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  const pages = page.getByRole('region', { name: 'Process pages' });
  for (const title of ['Contact', 'Details', 'Extra']) {
    await pages.getByRole('button', { name: 'Add page' }).click();
    await pages.getByRole('textbox', { name: 'Page title' }).last().fill(title);
  }
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).nth(0).fill('Full name');
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).nth(1).fill('Comment');
  await page.getByRole('combobox', { name: 'Process page' }).nth(1).selectOption({ label: 'Extra' });
  await expectNoSeriousA11yViolations(page, 'form process pages');

  // "Extra" has a field: deleting it asks where the field goes.
  await pages.getByRole('button', { name: 'Delete page Extra' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete page Extra' });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'delete page dialog');
  await dialog.getByRole('combobox', { name: /field moves to/ }).selectOption({ label: 'Details' });
  await dialog.getByRole('button', { name: 'Move fields and delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Process page' }).nth(1).locator('option:checked')).toHaveText('Details');
  // Rename and move "Details" first.
  await pages.getByRole('group', { name: 'Details' }).getByRole('textbox', { name: 'Page title' }).fill('Your request');
  await pages.getByRole('group', { name: 'Your request' }).getByRole('button', { name: 'Move page up' }).click();
  // A page without a title and without an icon is refused before saving.
  await pages.getByRole('group', { name: 'Contact' }).getByRole('textbox', { name: 'Page title' }).fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('A process page needs a title or an icon').first()).toBeVisible();
  await pages.getByRole('textbox', { name: 'Page title' }).nth(1).fill('About you');
  // The icon picker: a labelled dropdown; the chosen icon shows next to it.
  const about = pages.getByRole('group', { name: 'About you' });
  await about.getByRole('combobox', { name: 'Page icon' }).selectOption({ label: 'Person' });
  await expect(about.locator('[data-page-icon="person"]')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'process page icon picker');

  // "About you" is now second and no field is on it (Full name has no page: the first): refused before saving.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(about.getByText('This process page has no field: put a field on it or delete the page')).toBeVisible();
  await page.getByRole('combobox', { name: 'Process page' }).nth(0).selectOption({ label: 'About you' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();
  const list = (await (await apiCall(server, builderApi, 'GET', '/forms')).json()) as { items: Array<{ formUuid: string; name: string }> };
  const saved = (await (await apiCall(server, builderApi, 'GET', `/forms/${list.items.find((f) => f.name === 'Paged request')!.formUuid}`)).json()) as Form;
  expect(saved.processPages.map((p) => [p.title, p.icon])).toEqual([
    ['Your request', null],
    ['About you', 'person'],
  ]);
  const [request, aboutPage] = saved.processPages;
  expect(saved.customFields.map((f) => [f.name, f.page])).toEqual([
    ['Full name', aboutPage!.id],
    ['Comment', request!.id],
  ]);
  expect(aboutPage).toBeDefined();
});

test('a visitor fills a two-page form step by step; German labels and titles with a German browser', async ({ browser }) => {
  const translations = {
    de: {
      name: 'Anfrage in Schritten',
      fields: { 'Full name': { label: 'Vollständiger Name', hint: 'Vor- und Nachname' }, Topic: { label: 'Thema', options: { Sales: 'Vertrieb', Support: 'Kundendienst' } } },
      pages: { person: { title: 'Über Sie' }, request: { title: 'Ihr Anliegen', description: 'Worum geht es?' } },
    },
  };
  const created = await apiCall(server, builderApi, 'POST', '/forms', {
    name: 'Stepped request',
    url: 'stepped-request',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [recipient.email],
    disclaimerEnabled: true,
    disclaimerText: 'Your data is kept for 30 days.',
    translations: JSON.stringify(translations),
    processPages: [
      { id: 'person', title: 'About you' },
      { id: 'request', title: 'Your request', description: 'What is it about?', icon: 'upload' },
    ],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1, page: 'person' },
      { name: 'Attachment', type: 'file', maxFileSizeKb: 100, page: 'person' },
      { name: 'Topic', type: 'dropdown', required: true, options: ['Sales', 'Support'], page: 'request' },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const form = (await created.json()) as Form;

  const visitor = await browser.newContext({ locale: 'en-GB' });
  const page = await visitor.newPage();
  await page.goto(`${server.url}/form/${form.url}`);
  await expect(page.getByRole('heading', { name: 'Step 1 of 2: About you' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /Topic/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'I accept the disclaimer' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'public form step 1');

  // Next with the required field empty: the error, still step 1, the field focused.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Field is required')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Step 1 of 2: About you' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Full name/ })).toBeFocused();
  // Enter in the text field goes on to step 2 (never submits from step 1).
  await page.getByRole('textbox', { name: /Full name/ }).fill('Paula Partner');
  await page.getByLabel('Attachment').setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('kept across steps') });
  await page.getByRole('textbox', { name: /Full name/ }).press('Enter');
  await expect(page.getByRole('heading', { name: 'Step 2 of 2: Your request' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Step 2 of 2: Your request' }).locator('[data-page-icon="upload"]')).toBeVisible();
  await expect(page.getByText('What is it about?')).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Full name/ })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'I accept the disclaimer' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'public form step 2');

  // Back keeps the value.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('textbox', { name: /Full name/ })).toHaveValue('Paula Partner');
  expect(await page.getByLabel('Attachment').evaluate((input: HTMLInputElement) => [...(input.files ?? [])].map((f) => f.name))).toEqual(['note.txt']);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox', { name: /Topic/ }).selectOption('Support');
  await page.getByRole('checkbox', { name: 'I accept the disclaimer' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await visitor.close();

  const session = await apiSignIn(server, recipient);
  await expect
    .poll(async () => {
      const inbox = (await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
      const entry = inbox.items.find((item) => item.subject.includes('Stepped request'));
      if (!entry) return null;
      const detail = (await (await apiCall(server, session, 'GET', `/deliveries/${entry.deliveryUuid}`)).json()) as { body: string; files: Array<{ name: string }> };
      return { nameLine: detail.body.includes('Full name: Paula Partner'), files: detail.files.map((f) => f.name) };
    })
    .toEqual({ nameLine: true, files: ['note.txt'] });

  // A German browser: translated form name, step titles, labels and hints.
  const german = await browser.newContext({ locale: 'de-DE' });
  const dePage = await german.newPage();
  await dePage.goto(`${server.url}/form/${form.url}`);
  await expect(dePage.getByRole('heading', { name: 'Anfrage in Schritten', level: 1 })).toBeVisible();
  await expect(dePage.getByRole('heading', { name: 'Schritt 1 von 2: Über Sie' })).toBeVisible();
  await expect(dePage.getByRole('textbox', { name: /Vollständiger Name/ })).toBeVisible();
  await expect(dePage.getByText('Vor- und Nachname')).toBeVisible();
  await dePage.getByRole('button', { name: de.pages.next }).click();
  await expect(dePage.getByText(de.problems.required)).toBeVisible();
  await dePage.getByRole('textbox', { name: /Vollständiger Name/ }).fill('Paula');
  await dePage.getByRole('button', { name: de.pages.next }).click();
  await expect(dePage.getByRole('heading', { name: 'Schritt 2 von 2: Ihr Anliegen' })).toBeVisible();
  await expect(dePage.getByRole('combobox', { name: /Thema/ })).toBeVisible();
  // Option texts translated; the value chosen stays the option itself.
  await dePage.getByRole('combobox', { name: /Thema/ }).selectOption({ label: 'Kundendienst' });
  await expect(dePage.getByRole('combobox', { name: /Thema/ })).toHaveValue('Support');
  await expectNoSeriousA11yViolations(dePage, 'public form step 2 in German');
  await german.close();
});
