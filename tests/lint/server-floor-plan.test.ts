// The server's floor plan (server/README.md "Floor plan"), checked on the real tree:
// no non-test server file over SERVER_FILE_MAX_LINES lines (shared/ and web/ files over
// SHARED_WEB_FILE_MAX_LINES), no two server folders importing each other (imports between folders
// go one way), no import loop through three or more folders, no file import cycle anywhere in
// server/, the sub-units of server/rooms/ importing downwards only, and a room's E2E flag read in
// rooms/kind/ only. Each rule is also run on a made-up tree, so a broken check cannot pass silently.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { ROOM_ERROR_REASONS } from '@shared/contract/rooms';
import { describe, expect, it } from 'vitest';
import { isLintFixture } from './lint-fixtures';

const root = process.cwd();
const SERVER_FILE_MAX_LINES = 400;
/**
 * shared/ and web/ (issue 31 §0): set so today's largest pass — shared/crypto/service.ts (686),
 * shared/transfer/e2e.ts and web/features/rooms/e2e/e2e-room-client.ts (666 each) — and a file that
 * grows past them is split.
 */
const SHARED_WEB_FILE_MAX_LINES = 700;

type Tree = Record<string, string>;

/** Every non-test TypeScript file under the folder (server/ by default), path (from the repository root) → text. */
function sourceTree(top = 'server'): Tree {
  const tree: Tree = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      if (isLintFixture(name)) continue;
      const path = posix.join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.test(-helper)?\.tsx?$/.test(name) && !/\.d\.ts$/.test(name)) tree[path] = readFileSync(join(root, path), 'utf8');
    }
  };
  walk(top);
  return tree;
}
const serverTree = () => sourceTree('server');

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function oversized(tree: Tree, max = SERVER_FILE_MAX_LINES): string[] {
  return Object.entries(tree)
    .filter(([, text]) => lineCount(text) > max)
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

/**
 * File import cycles (a.ts → b.ts → a.ts, through any number of files, in one folder or across):
 * each cycle's files once (Tarjan's strongly connected components), sorted.
 */
function fileCycles(tree: Tree): string[][] {
  const edges = new Map(Object.entries(tree).map(([path, text]) => [path, serverImports(path, text).filter((t) => t in tree)]));
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)!.includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * server/rooms/ sub-units (server/README "rooms/, by kind") and what each may import: `kind/` at the
 * bottom, `plain/` on it, `e2e/` on `plain/`, `sharing/` on `e2e/`; `requests/` and `admin/` on
 * `plain/`. The files directly in rooms/ (routes.ts) compose them all.
 */
const ROOMS_SUB_UNITS: Record<string, readonly string[]> = {
  kind: [],
  plain: ['kind'],
  e2e: ['plain', 'kind'],
  sharing: ['e2e', 'plain', 'kind'],
  requests: ['plain', 'kind'],
  admin: ['plain', 'kind'],
};

/** The rooms sub-unit of a file (undefined: not under a rooms sub-folder). */
const roomsSubUnitOf = (path: string) => /^server\/rooms\/([^/]+)\//.exec(path)?.[1];

/** Files directly in rooms/ (the composition) and sub-folders the plan does not know, and imports that go up or sideways. */
function roomsPlanProblems(tree: Tree): string[] {
  const problems: string[] = [];
  for (const [path, text] of Object.entries(tree)) {
    const from = roomsSubUnitOf(path);
    if (from === undefined) continue;
    if (!(from in ROOMS_SUB_UNITS)) {
      problems.push(`${path}: rooms/${from}/ is not a sub-unit of the plan`);
      continue;
    }
    for (const target of serverImports(path, text)) {
      const to = roomsSubUnitOf(target);
      if (target.startsWith('server/rooms/') && to === undefined) problems.push(`${path} → ${target}: a sub-unit imports the composition`);
      else if (to !== undefined && to !== from && !ROOMS_SUB_UNITS[from]!.includes(to)) problems.push(`${path} → ${target}: rooms/${from}/ may not import rooms/${to}/`);
    }
  }
  return problems;
}

/** The room's E2E flag (`data_rooms.encrypted`) read — as a property or a column — outside rooms/kind/room-kind.ts. */
/** `reason: '…'` literals written in server/rooms/ that the contract's ROOM_ERROR_REASONS does not list. */
function unlistedRoomReasons(tree: Tree, listed: readonly string[]): string[] {
  return Object.entries(tree)
    .filter(([path]) => path.startsWith('server/rooms/'))
    .flatMap(([path, text]) => [...text.matchAll(/\breason: '([A-Za-z0-9]+)'/g)].map((m) => m[1]!).filter((r) => !listed.includes(r)).map((r) => `${path}: ${r}`));
}

function e2eFlagReaders(tree: Tree): string[] {
  const READ = /\.encrypted\b|['"`][a-z_]+\.encrypted['"`]/;
  return Object.entries(tree)
    .filter(([path]) => path.startsWith('server/rooms/') && path !== 'server/rooms/kind/room-kind.ts')
    .flatMap(([path, text]) =>
      text
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => !/^\s*(\/\/|\*|\/\*)/.test(line) && READ.test(line))
        .map(([, n]) => `${path}:${n}`),
    );
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

  it('no file import cycle anywhere in server/', () => {
    expect(fileCycles(tree)).toEqual([]);
  });

  it('server/rooms/ sub-units import downwards only (kind ← plain ← e2e ← sharing; requests, admin on plain)', () => {
    expect(Object.keys(tree).filter((p) => roomsSubUnitOf(p) !== undefined).length).toBeGreaterThan(30);
    expect(roomsPlanProblems(tree)).toEqual([]);
  });

  it('a room’s E2E flag is read in rooms/kind/room-kind.ts only', () => {
    expect(tree['server/rooms/kind/room-kind.ts']).toMatch(/\.encrypted\b/);
    expect(e2eFlagReaders(tree)).toEqual([]);
  });

  it('every reason a rooms file answers is in the contract (ROOM_ERROR_REASONS), listed once', () => {
    expect(unlistedRoomReasons(tree, ROOM_ERROR_REASONS)).toEqual([]);
    expect(new Set(ROOM_ERROR_REASONS).size).toBe(ROOM_ERROR_REASONS.length);
    expect(unlistedRoomReasons({ 'server/rooms/x/y.ts': `throw conflict('m', { reason: 'madeUp' });\nconst ok = { reason: 'lastOwner' };\n` }, ROOM_ERROR_REASONS)).toEqual(['server/rooms/x/y.ts: madeUp']);
  });

  it(`no non-test file of shared/ or web/ is longer than ${SHARED_WEB_FILE_MAX_LINES} lines`, () => {
    const shared = sourceTree('shared');
    const web = sourceTree('web');
    expect(Object.keys(web)).toContain('web/features/rooms/e2e/e2e-room-client.ts');
    expect(oversized({ ...shared, ...web }, SHARED_WEB_FILE_MAX_LINES)).toEqual([]);
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

  it('the cycle rule catches a file cycle inside one folder and across folders, and allows a chain', () => {
    const fixture: Tree = {
      'server/forms/forms.ts': `import { mayEdit } from './admin-settings';\nexport type FormRow = { id: number };\nexport const f = mayEdit;\n`,
      'server/forms/admin-settings.ts': `import type { FormRow } from './forms';\nimport { h } from './history';\nexport const mayEdit = (r: FormRow) => h(r);\n`,
      'server/forms/history.ts': `import { mayEdit } from '@server/forms/admin-settings';\nexport const h = (r: unknown) => r;\nexport const again = () => mayEdit;\n`,
      'server/a/one.ts': `import { two } from '../b/two';\nexport const one = two;\n`,
      'server/b/two.ts': `export const two = 2;\n`,
    };
    expect(fileCycles(fixture)).toEqual([['server/forms/admin-settings.ts', 'server/forms/forms.ts', 'server/forms/history.ts']]);
    fixture['server/b/two.ts'] = `import type { X } from '../a/one';\nexport const two = 2;\n`;
    expect(fileCycles(fixture)).toHaveLength(2);
    // Broken as on the real tree: the row type from the table, not from forms.ts.
    fixture['server/forms/admin-settings.ts'] = `import type { FormRow } from './tables';\nimport { h } from './history';\nexport const mayEdit = (r: FormRow) => h(r);\n`;
    fixture['server/b/two.ts'] = `export const two = 2;\n`;
    expect(fileCycles(fixture)).toEqual([['server/forms/admin-settings.ts', 'server/forms/history.ts']]);
    fixture['server/forms/history.ts'] = `export const h = (r: unknown) => r;\n`;
    expect(fileCycles(fixture)).toEqual([]);
  });

  it('the rooms plan catches an upward import, an import of the composition and an unknown sub-unit', () => {
    const fixture: Tree = {
      'server/rooms/kind/roles.ts': `export const r = 1;\n`,
      'server/rooms/plain/files.ts': `import { r } from '../kind/roles';\nexport const f = r;\n`,
      'server/rooms/e2e/e2e-rooms.ts': `import { f } from '../plain/files';\nexport const e = f;\n`,
      'server/rooms/routes.ts': `import { e } from './e2e/e2e-rooms';\nexport const x = e;\n`,
    };
    expect(roomsPlanProblems(fixture)).toEqual([]);
    fixture['server/rooms/plain/uploads.ts'] = `import { e } from '@server/rooms/e2e/e2e-rooms';\nexport const u = e;\n`;
    fixture['server/rooms/requests/requests.ts'] = `import { x } from '../routes';\nexport const q = x;\n`;
    fixture['server/rooms/misc/any.ts'] = `export const m = 1;\n`;
    expect(roomsPlanProblems(fixture)).toEqual([
      'server/rooms/plain/uploads.ts → server/rooms/e2e/e2e-rooms.ts: rooms/plain/ may not import rooms/e2e/',
      'server/rooms/requests/requests.ts → server/rooms/routes.ts: a sub-unit imports the composition',
      'server/rooms/misc/any.ts: rooms/misc/ is not a sub-unit of the plan',
    ]);
  });

  it('the flag rule catches a property read and a column outside room-kind.ts, not comments or other rows', () => {
    const fixture: Tree = {
      'server/rooms/kind/room-kind.ts': `export const isSecureRoom = (room: { encrypted: number }) => room.encrypted === 1;\n`,
      'server/rooms/plain/zip.ts': `// room.encrypted is asked through room-kind\nif (Number(room.encrypted) === 1) throw x;\n`,
      'server/rooms/admin/trash.ts': `db.select(['t.uuid', 't.encrypted']);\n`,
      'server/rooms/requests/copy.ts': `db.selectFrom('delivery_files').where('encrypted', '=', 0);\n`,
      'server/deliveries/parts.ts': `if (file.encrypted) x();\n`,
    };
    expect(e2eFlagReaders(fixture)).toEqual(['server/rooms/plain/zip.ts:2', 'server/rooms/admin/trash.ts:1']);
  });

  it('resolves imports from a file path to server paths', () => {
    expect(serverImports('server/deliveries/x.ts', `import a from './records';\nimport type { B } from '../db/schema';\nimport { z } from 'zod';\n`)).toEqual([
      'server/deliveries/records.ts',
      'server/db/schema.ts',
    ]);
  });
});
