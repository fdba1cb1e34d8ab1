// The Translations tab as a form's builder meets it (issue 33 §1.4): a column per language for
// every text of the form (name, texts, field labels, hints and options, page titles), what is
// still untranslated per language, and the JSON kept below as import and export — the table writes
// it, and a JSON pasted there fills the table. Saved, the server holds what the table wrote.
import { expect } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, signInToInbox, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.translations@example.test', password: PASSWORD, licensed: true, roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] };

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
  await apiCreateAccount(server, await apiSignIn(server, server.admin), builder);
});
test.afterAll(async () => {
  await server?.close();
});

test('a column per language, the untranslated count, the JSON as import and export', async ({ page }) => {
  const session = await apiSignIn(server, builder);
  const created = await apiCall(server, session, 'POST', '/forms', {
    name: 'Damage report',
    url: 'damage-report',
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [builder.email],
    customFields: [
      { name: 'Full name', type: 'text', textAreaSize: 1, hint: 'As on your ID' },
      { name: 'Channel', type: 'dropdown', options: ['Mail', 'Phone'] },
    ],
    translations: JSON.stringify({ de: { name: 'Schadensmeldung' } }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const form = (await created.json()) as { formUuid: string };

  await signInToInbox(page, server, builder);
  await page.goto(`${server.url}/forms/${form.formUuid}`);
  await page.getByRole('tab', { name: 'Translations' }).click();
  // Texts: the name, the field's label and hint, its two options, the dropdown's label = 6.
  const status = page.getByRole('list', { name: 'Translation status' });
  await expect(status.getByText('German: 5 not yet translated')).toBeVisible();
  await expect(status.getByText('English: 6 not yet translated')).toBeVisible();
  await expect(status.getByText('French: 6 not yet translated')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Form name (German)' })).toHaveValue('Schadensmeldung');
  await expectNoSeriousA11yViolations(page, 'form translations');

  await page.getByRole('textbox', { name: 'Label of field Full name (German)' }).fill('Vollständiger Name');
  await page.getByRole('textbox', { name: 'Hint of field Full name (German)' }).fill('Wie im Ausweis');
  await page.getByRole('textbox', { name: 'Option Phone of field Channel (French)' }).fill('Téléphone');
  await expect(status.getByText('German: 3 not yet translated')).toBeVisible();
  await expect(status.getByText('French: 5 not yet translated')).toBeVisible();
  const json = page.getByRole('textbox', { name: /^Import and export/ });
  expect(JSON.parse(await json.inputValue())).toEqual({
    de: { name: 'Schadensmeldung', fields: { 'Full name': { label: 'Vollständiger Name', hint: 'Wie im Ausweis' } } },
    fr: { fields: { Channel: { options: { Phone: 'Téléphone' } } } },
  });

  // Import: JSON pasted below fills the table.
  await json.fill(JSON.stringify({ en: { name: 'Damage report (EN)', fields: { Channel: { label: 'Contact by' } } } }));
  await expect(page.getByRole('textbox', { name: 'Label of field Channel (English)' })).toHaveValue('Contact by');
  await expect(page.getByRole('textbox', { name: 'Form name (German)' })).toHaveValue('');
  await expect(status.getByText('English: 4 not yet translated')).toBeVisible();
  await page.getByRole('textbox', { name: 'Option Mail of field Channel (English)' }).fill('Post');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();
  const saved = (await (await apiCall(server, session, 'GET', `/forms/${form.formUuid}`)).json()) as { translations: string };
  expect(JSON.parse(saved.translations)).toEqual({ en: { name: 'Damage report (EN)', fields: { Channel: { label: 'Contact by', options: { Mail: 'Post' } } } } });
});
