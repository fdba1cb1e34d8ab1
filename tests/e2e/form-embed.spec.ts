// A public form embedded in a page of a second origin (issue 16 §2 proof): a tiny static server on
// another port of 127.0.0.1 serves a partner page with an iframe and one with the embed script.
// Not listed in the embed settings, the browser refuses the frame (frame-ancestors 'none'); once
// an administrator lists the partner origin, the form shows in the frame and takes a submission,
// the script embed's frame follows the form's height, and `plain=1` drops the header.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_EMBED_SETTING_KEYS } from '@shared/contract/form-embed';
import type { Form } from '@shared/contract/forms';
import { expect, type Page } from '@playwright/test';
import { addressedTo, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, type ApiSession, test } from './fixtures';

let server: TestServer;
let admin: ApiSession;
let partner: Server;
let partnerOrigin: string;
let form: Form;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  admin = await apiSignIn(server, server.admin);
  const created = await apiCall(server, admin, 'POST', '/forms', {
    name: 'Partner contact',
    url: 'partner-contact',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [server.admin.email],
    customFields: [
      { name: 'Your name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Message', type: 'text', textAreaSize: 8 },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  form = (await created.json()) as Form;

  // The second origin: same host, another port (a different origin for frame-ancestors and CORS).
  partner = createServer((request, response) => {
    const pages: Record<string, string> = {
      '/iframe.html': `<iframe src="${server.url}/form/${form.formUuid}" title="Embedded form" style="width:100%;height:900px"></iframe>`,
      '/script.html': `<p>Partner page</p><script src="${server.url}/form-embed.js" data-form="${form.url}" data-query="plain=1" data-title="Embedded form"></script>`,
    };
    const body = pages[request.url ?? ''];
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ? `<!doctype html><html lang="en"><head><title>Partner</title></head><body>${body}</body></html>` : 'not found');
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  partnerOrigin = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  expect(partnerOrigin).not.toBe(new URL(server.url).origin);
});
test.afterAll(async () => {
  await new Promise((resolve) => partner?.close(resolve));
  await server?.close();
});

async function setFrameAncestors(value: string) {
  const response = await apiCall(server, admin, 'PUT', '/admin/settings', { [FORM_EMBED_SETTING_KEYS.frameAncestors]: value });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** The frame's document, once it has navigated (to the form, or to Chromium's error page when refused). */
async function frameUrl(page: Page): Promise<string> {
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle!.contentFrame();
  await frame!.waitForLoadState();
  return frame!.url();
}

test('not listed: the browser refuses to show the form in a frame of another origin', async ({ page }) => {
  const refused = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
  await page.goto(`${partnerOrigin}/iframe.html`);
  await refused;
  expect(await frameUrl(page)).not.toContain('/form/');
  await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Partner contact' })).toHaveCount(0);
});

test('listed by an administrator: the form shows in the frame and takes a submission', async ({ page }) => {
  await setFrameAncestors(partnerOrigin);
  await page.goto(`${partnerOrigin}/iframe.html`);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByRole('heading', { name: 'Partner contact' })).toBeVisible();
  expect(await frameUrl(page)).toBe(`${server.url}/form/${form.formUuid}`);
  await frame.getByRole('textbox', { name: /Your name/ }).fill('Paula Partner');
  await frame.getByRole('textbox', { name: 'Message' }).fill('Sent from the partner site');
  await frame.getByRole('button', { name: 'Submit' }).click();
  await expect(frame.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(server.admin.email)(m) && m.subject.includes('Partner contact'));
});

test('the script embed: a plain frame that takes the form’s height', async ({ page }) => {
  await setFrameAncestors(`${partnerOrigin}, https://*.example.org`);
  await page.goto(`${partnerOrigin}/script.html`);
  const frame = page.frameLocator('iframe[title="Embedded form"]');
  await expect(frame.getByRole('heading', { name: 'Partner contact' })).toBeVisible();
  // plain=1: no application header in the frame.
  await expect(frame.getByRole('banner')).toHaveCount(0);
  expect(await frameUrl(page)).toBe(`${server.url}/form/${form.url}?plain=1&embed=1`);
  // The script started the frame at 600 px; the form's own height replaces it.
  const iframe = page.locator('iframe[title="Embedded form"]');
  await expect.poll(async () => iframe.evaluate((el) => (el as HTMLIFrameElement).style.height)).not.toBe('600px');
  const frameHeight = await iframe.evaluate((el) => el.getBoundingClientRect().height);
  const formHeight = await frame.locator('main').evaluate((el) => el.getBoundingClientRect().bottom);
  expect(Math.abs(frameHeight - Math.ceil(formHeight))).toBeLessThanOrEqual(1);

  // Taken off the list again: refused.
  await setFrameAncestors('');
  const refused = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
  await page.reload();
  await refused;
  await expect(frame.getByRole('heading', { name: 'Partner contact' })).toHaveCount(0);
});
