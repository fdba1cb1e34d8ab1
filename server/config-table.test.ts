import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS, type Setting } from './config';

/** The README's configuration table is the settings record, row for row (names, aliases, defaults, texts). */

const README = new URL('../README.md', import.meta.url);

/** A row as the README writes it. */
function tableRow(definition: Setting): string {
  const names = [`\`${definition.env}\``, ...(definition.aliases ?? []).map((alias) => `(alias \`${alias}\`)`)].join(' ');
  const defaultValue = definition.default === '–' ? '–' : `\`${definition.default}\``;
  return `| ${names} | ${defaultValue} | ${definition.doc} |`;
}

function readmeRows(): string[] {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## Configuration\n'), text.indexOf('\n## ', text.indexOf('\n## Configuration\n') + 5));
  return section.split('\n').filter((line) => line.startsWith('| `'));
}

describe('configuration table in README.md', () => {
  it('lists exactly the settings of server/config.ts, in order, with their defaults and texts', () => {
    const expected = (Object.values(SETTINGS) as Setting[]).map(tableRow);
    expect(readmeRows()).toEqual(expected);
  });

  it('names every variable and alias once', () => {
    const names = (Object.values(SETTINGS) as Setting[]).flatMap((s) => [s.env, ...(s.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    const listed = readmeRows().flatMap((row) => [...row.split(' | ')[0]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect(listed.sort()).toEqual([...names].sort());
  });
});
