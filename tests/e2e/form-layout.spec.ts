// Form layout images in the web client against the real server: a forms administrator uploads a
// background image (a PNG made here) on the Layout tab, sees it in the live preview, turns on the
// company logo, saves; an anonymous visitor's public page shows the image behind the form (its
// URL answers 200 image/png) and the logo above it; the image is removed again. axe on both screens.
import { expect, type Page } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { makePng } from '@tests/support/png';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, screenshotsAtWidths, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'lena.layout@example.test', password: PASSWORD };

let server: TestServer;
let form: Form;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const created = await apiCall(server, admin, 'POST', '/admin/users', {
    ...builder,
    firstName: 'Lena',
    lastName: 'Layout',
    language: 'en',
    licensed: true,
    roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  await proveAddress(server, builder.email, builder.password);
  const session = await apiSignIn(server, builder);
  const response = await apiCall(server, session, 'POST', '/forms', {
    name: 'Job application',
    url: 'job-application',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [builder.email],
    customFields: [{ name: 'Full name', type: 'text', required: true, textAreaSize: 1 }],
  });
  expect(response.status, await response.clone().text()).toBe(201);
  form = (await response.json()) as Form;
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

/** The URL inside a CSS `background-image: url("…")`. */
const cssUrl = (value: string) => /url\("?([^")]+)"?\)/.exec(value)?.[1] ?? '';

test('background image and company logo: uploaded on the Layout tab, shown in the preview and on the public page', async ({ page, browser }) => {
  await signIn(page);
  await page.goto(`${server.url}/forms/${form.formUuid}`);
  await expect(page.getByRole('heading', { name: 'Form: Job application', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Layout' }).click();
  await expect(page.getByText('No background image.')).toBeVisible();

  // A text file named .png is refused with the server's reason; a real PNG is taken.
  await page.getByTestId('form-background-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
  await expect(page.getByText('This file is not a PNG, JPEG or WebP image.')).toBeVisible();
  await page.getByTestId('form-background-input').setInputFiles({ name: 'landscape.png', mimeType: 'image/png', buffer: makePng(64, 36, [20, 120, 60]) });
  await expect(page.getByText('The background image was saved.').first()).toBeVisible();
  const thumbnail = page.getByRole('img', { name: "The form's background image" });
  await expect(thumbnail).toBeVisible();
  await expect(page.getByText('PNG, 64 × 36 pixels')).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

  // The live preview: the image behind the form, the company logo once switched on (before saving).
  const preview = page.getByRole('region', { name: 'Preview' });
  const previewBackdrop = preview.getByTestId('form-backdrop');
  await expect(previewBackdrop).toHaveCSS('background-image', /background-image\?v=[0-9a-f]{16}/);
  await expect(preview.getByRole('img', { name: 'Company logo' })).toHaveCount(0);
  await page.getByRole('switch', { name: 'Show company logo' }).check();
  await expect(preview.getByRole('img', { name: 'Company logo' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form layout tab with a background image');
  await screenshotsAtWidths(page, 'form-layout-tab');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();

  // An anonymous visitor: the image behind the form (served as image/png), the logo above it.
  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`${server.url}/form/${form.url}`);
  await expect(publicPage.getByRole('heading', { name: 'Job application', level: 1 })).toBeVisible();
  const backdrop = publicPage.getByTestId('form-backdrop');
  const backgroundUrl = cssUrl(await backdrop.evaluate((el) => getComputedStyle(el).backgroundImage));
  expect(backgroundUrl).toMatch(new RegExp(`/api/2/public-forms/${form.formUuid}/background-image\\?v=[0-9a-f]{16}$`));
  const image = await publicPage.request.get(backgroundUrl);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect(image.headers()['x-content-type-options']).toBe('nosniff');
  const logo = publicPage.getByRole('img', { name: 'Company logo' });
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(publicPage.getByRole('textbox', { name: /Full name/ })).toBeVisible();
  await expectNoSeriousA11yViolations(publicPage, 'public form with background image and logo');
  await screenshotsAtWidths(publicPage, 'form-layout-public');

  // Removed: the preview and the public page show none.
  await page.getByRole('button', { name: 'Remove image' }).click();
  await expect(page.getByText('The background image was removed.').first()).toBeVisible();
  await expect(page.getByText('No background image.')).toBeVisible();
  await expect(previewBackdrop).toHaveCSS('background-image', 'none');
  await publicPage.reload();
  await expect(publicPage.getByRole('heading', { name: 'Job application', level: 1 })).toBeVisible();
  await expect(publicPage.getByTestId('form-backdrop')).toHaveCSS('background-image', 'none');
  expect((await publicPage.request.get(backgroundUrl)).status()).toBe(404);
  await visitor.close();
});
