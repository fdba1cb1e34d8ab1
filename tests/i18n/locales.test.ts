import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActivityKindSchema, ReviewStateSchema } from '@shared/contract/deliveries';
import { describe, expect, it } from 'vitest';

/**
 * Translation checks: every key exists in de, en and fr, and every literal `t('…')` key used in
 * the source exists in a locale file.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const LANGUAGES = ['de', 'en', 'fr'] as const;
const DEFAULT_NAMESPACE = 'common';
const PLURAL_SUFFIXES = ['_zero', '_one', '_two', '_few', '_many', '_other'];

function flatten(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
}

/** "ns:key" for every leaf of every namespace file of a language. */
function keysOf(language: string): Set<string> {
  const dir = join(root, 'locales', language);
  const keys = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const namespace = file.replace(/\.json$/, '');
    const data: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const key of flatten(data)) keys.add(`${namespace}:${key}`);
  }
  return keys;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Literal keys passed to t(), plus the labelKey/titleKey literals that are fed to t() later. */
const KEY_PATTERNS = [/\bt\(\s*(['"`])([^'"`$]+?)\1/g, /\b(?:labelKey|titleKey)\s*:\s*(['"`])([^'"`$]+?)\1/g];

function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  for (const folder of ['web', 'shared', 'src/web', 'addin', 'src/addin']) {
    let files: string[] = [];
    try {
      files = sourceFiles(join(root, folder));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of KEY_PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          const key = match[2] as string;
          used.set(key.includes(':') ? key : `${DEFAULT_NAMESPACE}:${key}`, relative(root, file));
        }
      }
    }
  }
  return used;
}

/**
 * Keys built at run time (`t(\`deliveries:activity.kind.${kind}\`)`): the static part before the
 * first `${` must name a group of texts (an object in the locale file), else every value of the
 * dynamic part renders as a raw key.
 */
const DYNAMIC_KEY_PATTERN = /\bt\(\s*`([^`$]*?)\$\{/g;

function dynamicKeyPrefixes(): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const folder of ['web', 'shared', 'src/web', 'addin', 'src/addin']) {
    let files: string[] = [];
    try {
      files = sourceFiles(join(root, folder));
    } catch {
      continue;
    }
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(DYNAMIC_KEY_PATTERN)) {
        const prefix = match[1] as string;
        if (prefix.endsWith('.')) prefixes.set(prefix.includes(':') ? prefix : `${DEFAULT_NAMESPACE}:${prefix}`, relative(root, file));
      }
    }
  }
  return prefixes;
}

const keys = Object.fromEntries(LANGUAGES.map((language) => [language, keysOf(language)])) as Record<(typeof LANGUAGES)[number], Set<string>>;

describe('locales', () => {
  it('have the same namespace files in every language', () => {
    const files = LANGUAGES.map((language) => readdirSync(join(root, 'locales', language)).filter((n) => n.endsWith('.json')).sort());
    expect(files[1]).toEqual(files[0]);
    expect(files[2]).toEqual(files[0]);
  });

  for (const language of LANGUAGES) {
    it(`${language} has every key the other languages have`, () => {
      const all = new Set(LANGUAGES.flatMap((other) => [...keys[other]]));
      const missing = [...all].filter((key) => !keys[language].has(key)).sort();
      expect(missing, `keys missing in ${language}`).toEqual([]);
    });
  }

  it('has no empty translations', () => {
    const empty: string[] = [];
    for (const language of LANGUAGES) {
      const dir = join(root, 'locales', language);
      for (const file of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
        const check = (value: unknown, path: string) => {
          if (typeof value === 'string' && !value.trim()) empty.push(`${language}/${file}:${path}`);
          if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) check(v, path ? `${path}.${k}` : k);
        };
        check(JSON.parse(readFileSync(join(dir, file), 'utf8')), '');
      }
    }
    expect(empty).toEqual([]);
  });

  it('defines every key the source uses', () => {
    const known = new Set(LANGUAGES.flatMap((language) => [...keys[language]]));
    const exists = (key: string) => known.has(key) || PLURAL_SUFFIXES.some((suffix) => known.has(`${key}${suffix}`));
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(0);
    const unknown = [...used].filter(([key]) => !exists(key)).map(([key, file]) => `${key} (${file})`);
    expect(unknown, 'keys used in the source but missing in locales/').toEqual([]);
  });

  it('has a group of texts for every key built at run time', () => {
    const prefixes = dynamicKeyPrefixes();
    expect(prefixes.size).toBeGreaterThan(0);
    for (const language of LANGUAGES) {
      const missing = [...prefixes].filter(([prefix]) => ![...keys[language]].some((key) => key.startsWith(prefix))).map(([prefix, file]) => `${prefix}… (${file})`);
      expect(missing, `${language}: key groups used with a run-time part but missing`).toEqual([]);
    }
  });

  it('names every activity kind and review state the server can answer (no raw codes in the activity log)', () => {
    for (const language of LANGUAGES) {
      const missing = [
        ...ActivityKindSchema.options.map((kind) => `deliveries:activity.kind.${kind}`),
        ...ReviewStateSchema.options.filter((state) => state !== 'notReviewed' && state !== 'clean').map((state) => `deliveries:reviewState.${state}`),
        // Codes the server writes into an activity's detail (web/features/secumails/delivery-view.tsx activityDetail).
        'deliveries:activity.details.releaseNeeded',
        'deliveries:activity.details.reviewBlocked',
      ].filter((key) => !keys[language].has(key));
      expect(missing, language).toEqual([]);
    }
  });
});
