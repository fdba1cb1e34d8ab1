// The signature field (issue 16 §2, SPEC §3) on the public form page: drawn with the mouse, or
// — the keyboard alternative — the typed name; required until signed, cleared with "Clear"; the
// recipient's delivery carries the signature as a PNG file.
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { expect, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, type ApiSession, test } from './fixtures';

let server: TestServer;
let admin: ApiSession;
let form: Form;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  admin = await apiSignIn(server, server.admin);
  const created = await apiCall(server, admin, 'POST', '/forms', {
    name: 'Consent',
    url: 'consent',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [server.admin.email],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Signature', type: 'signature', required: true },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  form = (await created.json()) as Form;
});
test.afterAll(async () => {
  await server?.close();
});

/** The PNG the admin's newest form delivery carries for the signature. */
async function signaturePng(name: string): Promise<Uint8Array> {
  const inbox = (await (await apiCall(server, admin, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string }> };
  for (const item of inbox.items) {
    const detail = (await (await apiCall(server, admin, 'GET', `/deliveries/${item.deliveryUuid}`)).json()) as { body: string; files: Array<{ fileId: string; name: string }> };
    if (!detail.body.includes(`Full name: ${name}`)) continue;
    const file = detail.files.find((f) => f.name === 'Signature.png');
    expect(file).toBeDefined();
    const content = await apiCall(server, admin, 'GET', `/deliveries/${item.deliveryUuid}/files/${file!.fileId}/content`);
    return new Uint8Array(await content.arrayBuffer());
  }
  throw new Error(`no delivery for ${name}`);
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function draw(page: Page) {
  const box = (await page.getByRole('img', { name: /Signature area for Signature/ }).boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 100);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 20 + i * 25, box.y + 100 - (i % 2) * 50, { steps: 3 });
  await page.mouse.up();
}

test('drawn with the mouse: required until signed, clear empties it, the delivery carries the PNG', async ({ page }) => {
  await page.goto(form.link);
  await expect(page.getByRole('heading', { name: 'Consent' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'signature field');
  await page.getByRole('textbox', { name: /Full name/ }).fill('Dora Drawn');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Field is required')).toBeVisible();
  await draw(page);
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Field is required')).toBeVisible();
  await draw(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  const png = await signaturePng('Dora Drawn');
  expect([...png.slice(0, 8)]).toEqual(PNG_MAGIC);
  expect(png.length).toBeGreaterThan(500);
});

test('keyboard alternative: the typed name becomes the signature', async ({ page }) => {
  await page.goto(form.link);
  await page.getByRole('textbox', { name: /Full name/ }).fill('Tom Typed');
  await page.getByRole('button', { name: 'Type my name instead' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Your name as signature' }).fill('Tom Typed');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  const png = await signaturePng('Tom Typed');
  expect([...png.slice(0, 8)]).toEqual(PNG_MAGIC);
});
