// Lint rules that keep the import boundaries of DESIGN.md §1, so nobody has to remember them.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The parts of the repository and what each may import (DESIGN.md §1). */
const elements = [
  { type: 'entry', pattern: 'src', mode: 'folder' },
  { type: 'shared-crypto', pattern: 'shared/crypto', mode: 'folder' },
  { type: 'shared-contract', pattern: 'shared/contract', mode: 'folder' },
  // Pure shared rules the server may import besides the contract (DESIGN §1 "pure shared helpers"):
  // the send rules and their rule → §8 error table. They import only the contract and each other, so
  // nothing that runs only in a browser (fetch, Worker, WebCrypto, storage, i18next) reaches the server.
  { type: 'shared-pure', pattern: 'shared/rules', mode: 'folder' },
  // The theme rules (hex colours, the luminance rule of SPEC §9): pure, the mails use them too.
  { type: 'shared-pure', pattern: 'shared/theme', mode: 'folder' },
  { type: 'shared', pattern: 'shared/*', mode: 'folder', capture: ['module'] },
  { type: 'web-feature', pattern: 'web/features/*', mode: 'folder', capture: ['feature'] },
  { type: 'web', pattern: 'web', mode: 'folder' },
  // Full paths from the root: tests/addin (the add-in harness) is a test, not the add-in.
  { type: 'addin-office', pattern: 'addin/office/**/*', mode: 'full' },
  { type: 'addin', pattern: 'addin/**/*', mode: 'full' },
  { type: 'server', pattern: 'server', mode: 'folder' },
  { type: 'locales', pattern: 'locales', mode: 'folder' },
  { type: 'tests', pattern: 'tests', mode: 'folder' },
];

const allShared = ['shared', 'shared-crypto', 'shared-contract', 'shared-pure'];

const importRules = [
  // Entry points wire things up; nothing imports them.
  { from: 'entry', allow: [...allShared, 'web', 'web-feature', 'addin', 'addin-office', 'server', 'locales'] },
  // The core imports only the core.
  { from: allShared, allow: [...allShared, 'locales'] },
  // …and a pure module only the contract and other pure modules (what the server may import stays pure).
  { from: 'shared-pure', disallow: ['shared', 'shared-crypto', 'locales'] },
  // Features import the core and web's own shared parts, and only their own feature.
  { from: 'web-feature', allow: [...allShared, 'web', 'locales', ['web-feature', { feature: '${from.feature}' }]] },
  // web/app (and the rest of web) composes features.
  { from: 'web', allow: [...allShared, 'web', 'web-feature', 'locales'] },
  { from: 'addin', allow: [...allShared, 'addin', 'addin-office', 'locales'] },
  { from: 'addin-office', allow: [...allShared, 'addin-office'] },
  // The server holds no end-to-end keys: never shared/crypto. Of shared/ it imports the contract and the
  // pure modules only — not shared/api, auth, transfer, i18n, theme or the rest of deliveries (server/README.md).
  { from: 'server', allow: ['server', 'shared-contract', 'shared-pure', 'locales'] },
  { from: 'tests', allow: [...allShared, 'web', 'web-feature', 'addin', 'addin-office', 'server', 'locales', 'tests', 'entry'] },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-results/**', 'playwright-report/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { boundaries, 'react-hooks': reactHooks },
    settings: {
      'boundaries/elements': elements,
      'boundaries/include': ['src/**', 'shared/**', 'web/**', 'addin/**', 'server/**', 'locales/**', 'tests/**'],
      'import/resolver': { typescript: { project: './tsconfig.json' }, node: true },
    },
    rules: {
      'boundaries/element-types': ['error', { default: 'disallow', rules: importRules }],
      'boundaries/no-unknown': 'off',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  // Only shared/crypto calls crypto.subtle (DESIGN.md §1).
  {
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    ignores: ['shared/crypto/**', 'tests/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='subtle']", message: 'Only shared/crypto may use crypto.subtle; use its API.' },
      ],
    },
  },
  // Only addin/office touches the Office global.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['addin/office/**', 'tests/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'Office', message: 'Only addin/office/ touches the Office global.' }],
    },
  },
  // The core has no Node built-ins, no React and no UI globals.
  {
    files: ['shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'shared/ runs in browsers and the add-in: no Node built-ins.' },
            { group: ['react', 'react-dom', 'react/*', '@fluentui/*'], message: 'shared/ has no UI.' },
            { group: ['@tests/*', '**/tests/**'], message: 'Production code never imports tests.' },
          ],
        },
      ],
    },
  },
  // The one exception: a thin React hook over a framework-free store in shared/ (`use-*.ts`, e.g.
  // shared/send/use-send-controller.ts) may import `react` itself — still no react-dom, no Fluent, no JSX.
  {
    files: ['shared/**/use-*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'shared/ runs in browsers and the add-in: no Node built-ins.' },
            { group: ['react-dom', 'react-dom/*', '@fluentui/*'], message: 'shared/ has no UI: a hook here only subscribes to a store.' },
            { group: ['@tests/*', '**/tests/**'], message: 'Production code never imports tests.' },
          ],
        },
      ],
    },
  },
  // Browser code (web client, add-in) has no Node built-ins either.
  {
    files: ['web/**/*.{ts,tsx}', 'addin/**/*.{ts,tsx}', 'src/web/**', 'src/addin/**', 'src/sw/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Browser code: no Node built-ins.' },
            { group: ['@tests/*', '**/tests/**'], message: 'Production code never imports tests.' },
          ],
        },
      ],
    },
  },
  // Production code never imports tests.
  {
    files: ['server/**', 'src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@tests/*', '**/tests/**'], message: 'Production code never imports tests.' }] },
      ],
    },
  },
  // Unit tests beside shared modules may read the committed fixtures they check (tests/fixtures/**,
  // e.g. the crypto known-answer vectors shared with the Chromium tests); nothing else under tests/.
  {
    files: ['shared/**/*.test.ts'],
    rules: {
      'boundaries/element-types': ['error', { default: 'disallow', rules: [...importRules, { from: allShared, allow: ['tests'] }] }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'shared/ runs in browsers and the add-in: no Node built-ins.' },
            { group: ['react', 'react-dom', 'react/*', '@fluentui/*'], message: 'shared/ has no UI.' },
            { regex: '(^@tests/|(^|/)tests/)(?!fixtures/)', message: 'Tests in shared/ may import only tests/fixtures.' },
          ],
        },
      ],
    },
  },
  // Playwright specs take `test` from tests/e2e/fixtures.ts (or base-test.ts): its automatic fixture
  // closes the browser contexts a test left open and names the spec (tests/e2e/base-test.ts).
  {
    files: ['tests/e2e/**/*.ts', 'tests/addin/**/*.ts', 'tests/browser/**/*.ts'],
    ignores: ['tests/e2e/base-test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@playwright/test', importNames: ['test'], message: "Import test from tests/e2e/fixtures (or base-test): it closes the browser contexts a test leaves open." }] },
      ],
    },
  },
);
