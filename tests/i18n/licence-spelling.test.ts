import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Issue 33 §2: the licence menu item and the licence page spell the word the same in each language. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (language: string, namespace: string) => JSON.parse(readFileSync(`${root}locales/${language}/${namespace}.json`, 'utf8')) as Record<string, Record<string, Record<string, Record<string, string>>>>;

describe('licence spelling', () => {
  it.each(['de', 'en', 'fr'])('%s: the menu item reads as the page title', (language) => {
    const shell = read(language, 'shell');
    const title = (read(language, 'admin').licence as unknown as { title: string }).title;
    expect(shell.admin!.items!.license).toBe(title);
    expect(shell.admin!.pages!.license).toBe(title);
  });
});
