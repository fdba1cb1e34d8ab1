// Proves the import boundaries of DESIGN.md §1 are enforced by lint: each forbidden
// import below must be reported, and the allowed ones must not.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINT_FIXTURE_PREFIX } from './lint-fixtures';

const root = process.cwd();
const fixtureTag = `${LINT_FIXTURE_PREFIX}${process.pid}`;
const files: Record<string, string> = {
  [`web/features/${fixtureTag}a/a.ts`]: `export const a = 1;\n`,
  [`web/features/${fixtureTag}b/b.ts`]: `import { a } from '@web/features/${fixtureTag}a/a';\nexport const b = a;\n`,
  [`shared/${fixtureTag}/core.ts`]: `import { a } from '@web/features/${fixtureTag}a/a';\nimport { readFileSync } from 'node:fs';\nexport const c = [a, readFileSync];\n`,
  [`shared/${fixtureTag}/subtle.ts`]: `export const s = crypto.subtle;\n`,
  [`server/${fixtureTag}.ts`]: `import { API_BASE } from '@shared/contract/constants';\nimport { a } from '../web/features/${fixtureTag}a/a';\nexport const q = [API_BASE, a];\n`,
  [`web/${fixtureTag}.ts`]: `import { API_BASE } from '@shared/contract/constants';\nexport const o = [API_BASE, Office];\n`,
  // The add-in: only addin/office touches Office; the rest of addin/ never imports web/.
  [`addin/${fixtureTag}/pane.ts`]: `import { API_BASE } from '@shared/contract/constants';\nexport const o = [API_BASE, Office.context];\n`,
  [`addin/${fixtureTag}/web.ts`]: `import { ROUTES } from '@web/lib/routes';\nexport const r = ROUTES;\n`,
  [`addin/office/${fixtureTag}.ts`]: `/// <reference types="office-js" />\nimport { API_BASE } from '@shared/contract/constants';\nexport const o = [API_BASE, Office.context];\n`,
  [`addin/office/${fixtureTag}-up.ts`]: `import { ADDIN_ERROR_KEYS } from '@addin/send/addin-errors';\nexport const k = ADDIN_ERROR_KEYS;\n`,
  // The server may import the pure shared rules (shared/rules), not the browser-side parts of shared/.
  [`server/${fixtureTag}-rules.ts`]: `import { checkSendForm } from '@shared/rules/send-rules';\nimport { sendRuleError } from '@shared/rules/send-rule-errors';\nimport { isE2eLevel } from '@shared/contract/security-levels';\nexport const r = [checkSendForm, sendRuleError, isE2eLevel];\n`,
  [`server/${fixtureTag}-errors.ts`]: `import { toSendError } from '@shared/deliveries/send-errors';\nexport const e = toSendError;\n`,
  [`server/${fixtureTag}-api.ts`]: `import { ApiError } from '@shared/api/api-error';\nexport const e = ApiError;\n`,
  [`server/${fixtureTag}-crypto.ts`]: `import { CryptoError } from '@shared/crypto/errors';\nexport const e = CryptoError;\n`,
  // What the server may import stays pure: shared/rules imports only the contract and itself.
  [`shared/rules/${fixtureTag}.ts`]: `import { API_BASE } from '@shared/contract/constants';\nimport { checkSendForm } from './send-rules';\nimport { ApiError } from '@shared/api/api-error';\nimport { CryptoError } from '@shared/crypto/errors';\nimport en from '@locales/en/send.json';\nexport const p = [API_BASE, checkSendForm, ApiError, CryptoError, en];\n`,
};

async function lint(path: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintFiles([path]);
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

// The first lint starts ESLint with the TypeScript resolver: seconds on a busy 2-core machine.
describe('import boundaries (DESIGN §1)', { timeout: 30_000 }, () => {
  beforeAll(() => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  });
  afterAll(() => {
    for (const path of Object.keys(files)) rmSync(join(root, path), { force: true });
    rmSync(join(root, `web/features/${fixtureTag}a`), { recursive: true, force: true });
    rmSync(join(root, `web/features/${fixtureTag}b`), { recursive: true, force: true });
    rmSync(join(root, `shared/${fixtureTag}`), { recursive: true, force: true });
    rmSync(join(root, `addin/${fixtureTag}`), { recursive: true, force: true });
  });

  it('refuses a feature importing another feature', async () => {
    expect(await lint(`web/features/${fixtureTag}b/b.ts`)).toEqual([expect.stringContaining('boundaries/element-types')]);
  });
  it('refuses shared importing web or Node built-ins', async () => {
    const messages = await lint(`shared/${fixtureTag}/core.ts`);
    expect(messages.some((m) => m.startsWith('boundaries/element-types'))).toBe(true);
    expect(messages.some((m) => m.startsWith('no-restricted-imports') && m.includes('node'))).toBe(true);
  });
  it('refuses crypto.subtle outside shared/crypto', async () => {
    expect(await lint(`shared/${fixtureTag}/subtle.ts`)).toEqual([expect.stringContaining('crypto.subtle')]);
  });
  it('lets the server import the contract but not the web client', async () => {
    const messages = await lint(`server/${fixtureTag}.ts`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('boundaries/element-types');
  });
  it('lets the server import the pure shared rules and the level table, and nothing browser-side of shared/', async () => {
    expect(await lint(`server/${fixtureTag}-rules.ts`)).toEqual([]);
    for (const part of ['errors', 'api', 'crypto']) expect(await lint(`server/${fixtureTag}-${part}.ts`), part).toEqual([expect.stringContaining('boundaries/element-types')]);
  });
  it('keeps shared/rules pure: the contract and itself only', async () => {
    const messages = await lint(`shared/rules/${fixtureTag}.ts`);
    expect(messages).toHaveLength(3);
    expect(messages.every((m) => m.startsWith('boundaries/element-types'))).toBe(true);
  });
  it('refuses the Office global outside addin/office', async () => {
    expect(await lint(`web/${fixtureTag}.ts`)).toEqual([expect.stringContaining('no-restricted-globals')]);
  });
  it('refuses the Office global in the add-in outside addin/office, and allows it there', async () => {
    expect(await lint(`addin/${fixtureTag}/pane.ts`)).toEqual([expect.stringContaining('no-restricted-globals')]);
    expect(await lint(`addin/office/${fixtureTag}.ts`)).toEqual([]);
  });
  it('refuses the add-in importing the web client, and addin/office importing the rest of the add-in', async () => {
    expect(await lint(`addin/${fixtureTag}/web.ts`)).toEqual([expect.stringContaining('boundaries/element-types')]);
    expect(await lint(`addin/office/${fixtureTag}-up.ts`)).toEqual([expect.stringContaining('boundaries/element-types')]);
  });
});
