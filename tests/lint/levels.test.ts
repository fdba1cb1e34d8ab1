// One security-level table (shared/contract/security-levels.ts): outside shared/contract no
// production file spells a level itself — no wire value or level number used as a level
// (`=== 30`, `level: 20`, `securityLevel >= 3`, `'in', [20, 30]`) and no level name (`LEVEL_3`,
// the raw `SECURITY_LEVELS` enum). Tests are not scanned: they pin the wire values on purpose
// (a test that asked the table would pass with a wrong table).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLintFixture, LINT_FIXTURE_PREFIX } from './lint-fixtures';

const root = process.cwd();
/** Production code that could spell a level: the server, the clients, the entry points and shared/ (minus the contract). */
const SCANNED = ['server', 'web', 'addin', 'src', 'shared'];
const EXEMPT = [`shared${sep}contract${sep}`];

/** Wire values (0/10/20/30) and level numbers (1–4). */
const NUMBER = String.raw`(?:0|10|20|30|1|2|3|4)(?![\w.])`;
/** A name that holds a level: `securityLevel`, `security_level`, `SECURITY_LEVEL`, `level`, `levels`, `d.level`, `allowedSecurityLevels`. */
const HOLDER = String.raw`(?<![\w$-])(?:[A-Za-z0-9_$]*?security_?levels?|levels?)(?![\w$])`;
const OPERATOR = String.raw`(?:===|!==|==|!=|>=|<=|>|<)`;

const RULES: Array<{ what: string; pattern: RegExp }> = [
  { what: 'a level name', pattern: /(?<![\w$])(?:LEVEL_[1-4]|SECURITY_LEVELS)(?![\w$])/ },
  { what: 'a level compared with a number', pattern: new RegExp(String.raw`${HOLDER}\s*${OPERATOR}\s*${NUMBER}`, 'i') },
  { what: 'a number compared with a level', pattern: new RegExp(String.raw`(?<![\w.$])${NUMBER}\s*${OPERATOR}\s*(?:[\w$]+\??\.)*${HOLDER}`, 'i') },
  // `level: 20`, `levels: [20, 30]`, `level = 3`, `securityLevel={30}`, a type `level: 1 | 2`.
  { what: 'a number given as a level', pattern: new RegExp(String.raw`${HOLDER}['"]?\??\s*(?::|=(?![=>]))\s*[\[{(]?\s*${NUMBER}`, 'i') },
  { what: 'a level list of numbers', pattern: new RegExp(String.raw`${HOLDER}\.(?:includes|indexOf)\(\s*${NUMBER}`, 'i') },
  // Kysely: .where('security_level', '=', 30) / .where('d.security_level', 'in', [20, 30]).
  { what: 'a level column compared with a number', pattern: new RegExp(String.raw`['"][\w.]*security_level['"]\s*,\s*['"][^'"]+['"]\s*,\s*\[?\s*${NUMBER}`, 'i') },
];

/** Each line of `text` that spells a level, with the rule it breaks. */
function levelSpellings(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '').replace(/\/\*.*?\*\//g, '');
    for (const rule of RULES) if (rule.pattern.test(code)) found.push(`${i + 1}: ${rule.what}: ${line.trim()}`);
  });
  return found;
}

/** The file 'walks the real folders' plants in server/. */
const PLANTED_NAME = `${LINT_FIXTURE_PREFIX}levels${process.pid}.ts`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    // Other lint tests' fixtures are skipped; this file's own planted one (below) is not.
    if (isLintFixture(entry.name) && entry.name !== PLANTED_NAME) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:ts|tsx|mts)$/.test(entry.name) && !/\.(?:test|spec)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function scanTree(): string[] {
  return SCANNED.flatMap((folder) => sourceFiles(join(root, folder)))
    .map((path) => relative(root, path))
    .filter((path) => !EXEMPT.some((prefix) => path.startsWith(prefix)))
    .flatMap((path) => levelSpellings(readFileSync(join(root, path), 'utf8')).map((hit) => `${path}:${hit}`));
}

describe('security levels are spelled only in shared/contract', () => {
  it('finds no level number or level name in server, web, add-in, entry points or shared/ outside the contract', () => {
    expect(scanTree()).toEqual([]);
  });

  it('catches each spelling the table replaces', () => {
    const planted = [
      'if (delivery.security_level === 30) {',
      'const e2e = securityLevel >= 3;',
      'return level !== 10 ? a : b;',
      'if (20 <= draft.securityLevel) x();',
      "createDraft({ subject, securityLevel: 20 });",
      'const group = { name: "Legal", levels: [20, 10] };',
      'newDelivery: { level: 1 | 2 | 3 | 4 };',
      'let level = 4;',
      '<LevelBadge securityLevel={30} />',
      "query.where('security_level', 'in', [20, 30]);",
      "query.where('d.security_level', '=', 0);",
      'if (allowedSecurityLevels.includes(0)) x();',
      'const wire = SECURITY_LEVELS.LEVEL_3;',
      "const name = 'LEVEL_4';",
      'import { SECURITY_LEVELS } from "@shared/contract/constants";',
    ];
    for (const line of planted) expect(levelSpellings(line), line).toHaveLength(1);
  });

  it('leaves alone what only looks alike', () => {
    const fine = [
      'if (isE2eLevel(delivery.security_level)) {',
      'const e2e = encryptsMessage(level);',
      "query.where('security_level', 'in', E2E_SECURITY_LEVELS);",
      'const levels = SECURITY_LEVEL_ORDER.filter((l) => allowed.includes(l));',
      'if (levels.length === 0) return;',
      'if (allowed.length > 0) x();',
      'const logLevel = 3;',
      "<Subtitle2 as=\"h2\">{t('level.title')}</Subtitle2>",
      'const retries = 3; // level 3 and 4 deliveries',
      ' * Levels 3 and 4: the files are end-to-end encrypted (level: 3).',
      'const levelHint = levels[0];',
      'const count = levels.length + 10;',
      'const E2E = E2E_SECURITY_LEVELS.length === 2;',
      '<div role="heading" aria-level={2}>',
    ];
    for (const line of fine) expect(levelSpellings(line), line).toEqual([]);
  });

  describe('walks the real folders', () => {
    const planted = join(root, 'server', PLANTED_NAME);
    beforeAll(() => {
      mkdirSync(join(root, 'server'), { recursive: true });
      writeFileSync(planted, 'export const isPlain = (level: number) => level < 20;\n');
    });
    afterAll(() => rmSync(planted, { force: true }));

    it('reports a planted file with its path and line', () => {
      expect(scanTree()).toEqual([`server${sep}${PLANTED_NAME}:1: a level compared with a number: export const isPlain = (level: number) => level < 20;`]);
    });
  });
});
