// The `test` of every Playwright spec (tests/e2e, tests/addin, tests/browser; eslint.config.mjs
// refuses `test` from '@playwright/test' there): Playwright's own, plus one automatic fixture that
// closes the browser contexts a test (or a spec file's hooks) left open.
//
// Why: the worker's `browser` keeps every context from `browser.newContext()` / `browser.newPage()`
// until the worker ends, across spec files. A test that fails before its `context.close()` left its
// pages running, and Playwright's failure report then showed the first context still open — once
// another spec's inbox under a forms failure — and took screenshots of every leftover page.
// This fixture closes them and says so on stderr and as a `leaked-context` annotation, naming the
// spec file and test that opened them.
import { relative } from 'node:path';
import { test as base, type Browser, type BrowserContext, type TestInfo } from '@playwright/test';

/** Where each context still open was first seen in this worker: its spec file, and the test (or hook) that opened it. */
const openedBy = new WeakMap<BrowserContext, { file: string; where: string }>();

async function closeLeftover(context: BrowserContext, where: string, testInfo: TestInfo, when: string): Promise<void> {
  const message = `leaked browser context: opened by ${where} and still open ${when}; closed now (close it in the test, e.g. in a finally)`;
  console.warn(`[e2e] ${message}`);
  testInfo.annotations.push({ type: 'leaked-context', description: message });
  await context.close().catch(() => undefined);
}

async function closeLeftovers(browser: Browser, testInfo: TestInfo, runTest: () => Promise<void>): Promise<void> {
  const file = relative(process.cwd(), testInfo.file);
  // Open before this test: a context of this file's beforeAll stays (its afterAll closes it); one
  // of an earlier spec file of this worker is a leak of that file's hooks.
  for (const context of browser.contexts()) {
    const owner = openedBy.get(context);
    if (!owner) openedBy.set(context, { file, where: `${file} (a beforeAll hook)` });
    else if (owner.file !== file) await closeLeftover(context, owner.where, testInfo, `when ${file} started`);
  }
  const before = new Set(browser.contexts());
  await runTest();
  // Torn down after the built-in `context` (set up later, torn down earlier): what is left the test opened.
  const where = `${file} › ${testInfo.titlePath.slice(1).join(' › ')}`;
  for (const context of browser.contexts()) {
    if (!before.has(context)) await closeLeftover(context, where, testInfo, 'after the test');
  }
}

export const test = base.extend<{ closesLeftoverContexts: void }>({
  closesLeftoverContexts: [async ({ browser }, use, testInfo) => closeLeftovers(browser, testInfo, use), { auto: true }],
});
