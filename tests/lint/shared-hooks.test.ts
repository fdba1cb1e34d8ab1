// The one React exception in shared/ (eslint.config.mjs): a thin hook over a framework-free store
// in `shared/**/use-*.ts` may import `react` — nothing else in shared/ may, and no hook may import
// react-dom or Fluent (shared/ has no UI).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINT_FIXTURE_PREFIX } from './lint-fixtures';

const root = process.cwd();
// Named like boundaries.test.ts's fixtures, so the other lint tests' walkers skip it (lint-fixtures.ts).
const folder = `shared/${LINT_FIXTURE_PREFIX}hooks${process.pid}`;
const files: Record<string, string> = {
  [`${folder}/use-store.ts`]: `import { useSyncExternalStore } from 'react';\nexport const useStore = (s: () => number) => useSyncExternalStore(() => () => undefined, s);\n`,
  [`${folder}/use-ui.ts`]: `import { Button } from '@fluentui/react-components';\nimport { createPortal } from 'react-dom';\nexport const u = [Button, createPortal];\n`,
  [`${folder}/store.ts`]: `import { useState } from 'react';\nexport const s = useState;\n`,
};

async function lint(path: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintFiles([path]);
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('React in shared/: only thin hooks', { timeout: 30_000 }, () => {
  beforeAll(() => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  });
  afterAll(() => rmSync(join(root, folder), { recursive: true, force: true }));

  it('lets a use-*.ts hook import react', async () => {
    expect(await lint(`${folder}/use-store.ts`)).toEqual([]);
  });
  it('refuses Fluent and react-dom even in a hook', async () => {
    const messages = await lint(`${folder}/use-ui.ts`);
    expect(messages.filter((m) => m.startsWith('no-restricted-imports'))).toHaveLength(2);
  });
  it('refuses react in any other shared/ file', async () => {
    expect(await lint(`${folder}/store.ts`)).toEqual([expect.stringContaining('shared/ has no UI')]);
  });
});
