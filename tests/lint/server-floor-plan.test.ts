// The server's floor plan (server/README.md "Floor plan"), checked on the real tree:
// no non-test server file over SERVER_FILE_MAX_LINES lines, no two server folders importing
// each other (imports between folders go one way), and no import loop through three or more folders. Each rule is also run on a made-up tree,
// so a broken check cannot pass silently.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const SERVER_FILE_MAX_LINES = 400;

type Tree = Record<string, string>;

/** Every non-test TypeScript file under server/, path (from the repository root) → text. */
function serverTree(): Tree {
  const tree: Tree = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = posix.join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && !/\.test(-helper)?\.ts$/.test(name)) tree[path] = readFileSync(join(root, path), 'utf8');
    }
  };
  walk('server');
  return tree;
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function oversized(tree: Tree): string[] {
  return Object.entries(tree)
    .filter(([, text]) => lineCount(text) > SERVER_FILE_MAX_LINES)
    .map(([path, text]) => `${path}: ${lineCount(text)} lines`);
}

/** The unit a server file belongs to: its top folder under server/, or the file itself for server/*.ts. */
const unitOf = (path: string) => {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.ts$/, '');
};

/** Static and dynamic imports and re-exports (type-only ones too: they couple folders as well). */
const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every server file a server file imports, resolved to a path under server/. */
function serverImports(path: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!;
    let target: string;
    if (spec.startsWith('.')) target = posix.normalize(posix.join(dirname(path), spec));
    else if (spec.startsWith('@server/')) target = `server/${spec.slice('@server/'.length)}`;
    else continue;
    if (target.startsWith('server/')) found.push(target.endsWith('.ts') ? target : `${target}.ts`);
  }
  return found;
}

/** Pairs of units that import each other, each with one import of either direction. */
function mutualPairs(tree: Tree): string[] {
  const edges = new Map<string, string>();
  for (const [path, text] of Object.entries(tree)) {
    for (const target of serverImports(path, text)) {
      const [from, to] = [unitOf(path), unitOf(target)];
      if (from !== to && !edges.has(`${from}>${to}`)) edges.set(`${from}>${to}`, `${path} → ${target}`);
    }
  }
  const pairs: string[] = [];
  for (const [key, example] of edges) {
    const [from, to] = key.split('>') as [string, string];
    const back = edges.get(`${to}>${from}`);
    if (back && from < to) pairs.push(`${from} ⇄ ${to} (${example}; ${back})`);
  }
  return pairs;
}

/** The import graph between units: unit → the units it imports (first import of each as the example). */
function unitEdges(tree: Tree): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [path, text] of Object.entries(tree)) {
    for (const target of serverImports(path, text)) {
      const [from, to] = [unitOf(path), unitOf(target)];
      if (from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${path} → ${target}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/**
 * Import loops through three or more units (a → b → c → a; two-unit loops are `mutualPairs`):
 * each loop once, starting at its smallest unit, with one import per step.
 */
function importLoops(tree: Tree): string[] {
  const edges = unitEdges(tree);
  const loops: string[] = [];
  const walk = (start: string, path: string[], seen: Set<string>) => {
    const at = path[path.length - 1]!;
    for (const next of edges.get(at)?.keys() ?? []) {
      if (next === start && path.length >= 3) {
        const steps = path.map((unit, i) => edges.get(unit)!.get(path[i + 1] ?? start)!);
        loops.push(`${[...path, start].join(' → ')} (${steps.join('; ')})`);
      } else if (next > start && !seen.has(next)) {
        seen.add(next);
        walk(start, [...path, next], seen);
        seen.delete(next);
      }
    }
  };
  for (const start of [...edges.keys()].sort()) walk(start, [start], new Set([start]));
  return loops;
}

describe('server floor plan', () => {
  const tree = serverTree();

  it('reads the real server tree', () => {
    expect(Object.keys(tree)).toContain('server/app.ts');
    expect(Object.keys(tree)).toContain('server/deliveries/records.ts');
    expect(Object.keys(tree).some((p) => p.endsWith('.test.ts'))).toBe(false);
  });

  it(`no non-test server file is longer than ${SERVER_FILE_MAX_LINES} lines (split by concern)`, () => {
    expect(oversized(tree)).toEqual([]);
  });

  it('no two server folders import each other', () => {
    expect(mutualPairs(tree)).toEqual([]);
  });

  it('no import loop runs through three or more server folders', () => {
    expect(importLoops(tree)).toEqual([]);
  });

  it('the size rule catches a long file, and only that one', () => {
    const long = 'export const a = 1;\n'.repeat(SERVER_FILE_MAX_LINES + 1);
    const atLimit = 'export const a = 1;\n'.repeat(SERVER_FILE_MAX_LINES);
    expect(oversized({ 'server/x/long.ts': long, 'server/x/ok.ts': atLimit })).toEqual([`server/x/long.ts: ${SERVER_FILE_MAX_LINES + 1} lines`]);
  });

  it('the import rule catches folders importing each other, by any spelling, and allows one way', () => {
    const fixture: Tree = {
      'server/a/one.ts': `import { b } from '../b/two';\nexport const a = b;\n`,
      'server/b/two.ts': `export const b = 1;\n`,
      'server/b/three.ts': `import type { A } from '@server/a/types';\nexport type B = A;\n`,
      'server/a/types.ts': `export type A = number;\n`,
      'server/c/four.ts': `export { b } from '../b/two';\nconst lazy = () => import('../a/one');\n`,
      'server/app.ts': `import { a } from './a/one';\nexport const x = a;\n`,
      'server/config.ts': `export const c = 1;\n`,
      'server/a/uses-config.ts': `import { c } from '../config';\nexport const y = c;\n`,
    };
    // a ⇄ b (a relative import one way, an alias type import back); c → a and c → b one way only;
    // app → a and a → config are the root files, units of their own: no pair.
    expect(mutualPairs(fixture)).toEqual([expect.stringMatching(/^a ⇄ b /)]);
    delete fixture['server/b/three.ts'];
    expect(mutualPairs(fixture)).toEqual([]);
  });

  it('the loop rule catches a loop through three folders (core → users → db → core, as once), each loop once', () => {
    const fixture: Tree = {
      'server/core/access.ts': `import { u } from '../users/users';\nexport const a = u;\n`,
      'server/users/users.ts': `import { db } from '@server/db/database';\nexport const u = db;\n`,
      'server/db/database.ts': `import { mode } from '../core/private-files';\nexport const db = mode;\n`,
      'server/core/private-files.ts': `export const mode = 0o700;\n`,
      'server/app.ts': `import { a } from './core/access';\nexport const x = a;\n`,
    };
    expect(importLoops(fixture)).toEqual([
      'core → users → db → core (server/core/access.ts → server/users/users.ts; server/users/users.ts → server/db/database.ts; server/db/database.ts → server/core/private-files.ts)',
    ]);
    expect(mutualPairs(fixture)).toEqual([]);
    // The file moved to the folder that uses it at the bottom: no loop left.
    fixture['server/db/private-files.ts'] = fixture['server/core/private-files.ts']!;
    delete fixture['server/core/private-files.ts'];
    fixture['server/db/database.ts'] = `import { mode } from './private-files';\nexport const db = mode;\n`;
    expect(importLoops(fixture)).toEqual([]);
  });

  it('resolves imports from a file path to server paths', () => {
    expect(serverImports('server/deliveries/x.ts', `import a from './records';\nimport type { B } from '../db/schema';\nimport { z } from 'zod';\n`)).toEqual([
      'server/deliveries/records.ts',
      'server/db/schema.ts',
    ]);
  });
});
