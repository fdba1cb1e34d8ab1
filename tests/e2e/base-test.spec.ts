// tests/e2e/base-test.ts: a context a test leaves open is closed after it (and reported), so the next
// test — of this file or another spec file in the same worker — never runs beside it. No server.
import { expect, type BrowserContext } from '@playwright/test';
import { test } from './base-test';

test.describe.configure({ mode: 'serial' });

let leaked: BrowserContext | undefined;
let closed = false;

test('a test leaves a context open on purpose (expect one "leaked browser context" warning)', async ({ browser }) => {
  leaked = await browser.newContext();
  leaked.on('close', () => {
    closed = true;
  });
  await leaked.newPage();
  expect(browser.contexts()).toContain(leaked);
});

test('the next test starts without it: the fixture closed it after the test', async ({ browser }) => {
  expect(leaked).toBeDefined();
  expect(closed).toBe(true);
  expect(browser.contexts()).not.toContain(leaked);
});
