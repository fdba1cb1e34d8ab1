// Chromium (Playwright): the same shared/crypto code, bundled with esbuild, checked against the same
// fixture files as the Node tests, plus the Worker proxy as the web client will use it.
import { expect, type Page } from '@playwright/test';
import { test } from '../e2e/base-test';
import { startCryptoHarness, type CryptoHarnessServer } from './crypto-harness/serve';
import type { CryptoHarness } from './crypto-harness/page-entry';

let server: CryptoHarnessServer;

test.beforeAll(async () => {
  server = await startCryptoHarness();
});
test.afterAll(async () => {
  await server.close();
});

async function openHarness(page: Page): Promise<void> {
  await page.goto(server.url);
  await page.waitForFunction(() => 'kuvertCryptoHarness' in window);
}

function harness<K extends keyof CryptoHarness>(page: Page, name: K, ...args: Parameters<CryptoHarness[K]>) {
  return page.evaluate(
    ([method, methodArgs]) => {
      const h = (window as unknown as { kuvertCryptoHarness: Record<string, (...a: unknown[]) => unknown> }).kuvertCryptoHarness;
      return h[method as string]?.(...(methodArgs as unknown[]));
    },
    [name, args] as const,
  ) as Promise<Awaited<ReturnType<CryptoHarness[K]>>>;
}

test('published vectors (RFC 5869, RFC 9180, Argon2 reference) hold in Chromium', async ({ page }) => {
  await openHarness(page);
  const results = await harness(page, 'publishedVectors');
  expect(results.length).toBe(14);
  for (const result of results) expect(result.actual, result.name).toBe(result.expected);
});

test('our known-answer vectors (kat.json) hold in Chromium', async ({ page }) => {
  await openHarness(page);
  const results = await harness(page, 'knownAnswers');
  expect(results.length).toBeGreaterThan(30);
  for (const result of results) expect(result.actual, result.name).toBe(result.expected);
});

test('the data-room vectors (room-kat.json) hold in Chromium', async ({ page }) => {
  await openHarness(page);
  const results = await harness(page, 'roomKnownAnswers');
  expect(results.length).toBe(15);
  for (const result of results) expect(result.actual, result.name).toBe(result.expected);
});

for (const [recordSize, n] of [
  [64, 3],
  [512 * 1024, 2],
] as const) {
  test(`every mutation fails with its own error in Chromium (${recordSize}-byte records)`, async ({ page }) => {
    test.setTimeout(120_000);
    await openHarness(page);
    const results = await harness(page, 'mutations', recordSize, n);
    expect(results.length).toBeGreaterThan(80);
    for (const result of results) expect(result.actual, `${result.mutation} at ${result.size} bytes`).toBe(result.expected);
  });
}

test('the Worker proxy hands out handles, never key bytes, and keeps error codes', async ({ page }) => {
  await openHarness(page);
  const result = await harness(page, 'workerScenario');
  expect(result.roundTrip).toBe(true);
  expect(result.handleShape).toBe('string');
  expect(result.visibleToPage).not.toMatch(/pkcs8|privateKey|"d":/);
  expect(result.tamperedCode).toBe('stream-record-corrupted');
  expect(result.wrongPassphraseCode).toBe('secupass-wrong-passphrase');
  expect(result.afterLockCode).toBe('key-handle-unknown');
});

test('unlocked private keys are non-extractable in Chromium', async ({ page }) => {
  await openHarness(page);
  const results = await harness(page, 'nonExtractable');
  expect(results).toEqual([
    { usage: 'encryption', extractable: false, exportRefused: true },
    { usage: 'signing', extractable: false, exportRefused: true },
  ]);
});
