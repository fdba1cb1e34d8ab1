import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, NAME_PROBLEMS, nameKey, nameProblem, normaliseName, typedName } from './names';

/** Characters the rule is about, among ordinary ones: a small alphabet finds the edge cases fast. */
const TRICKY = fc.constantFrom('a', 'C', 'O', 'N', '.', ' ', ':', '/', 'é', 'e', '\u0301', '\u00a0', '\u202e', '\u2066', '\u200b', '\u00ad', '\ufeff', '\u0000', '\n', '😀');

describe('the one name rule (issue 28)', () => {
  it('refuses bidi controls, zero-width characters and the BOM wherever they stand', () => {
    for (const c of ['\u202e', '\u202a', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c']) {
      expect(nameProblem(`a${c}b.pdf`), JSON.stringify(c)).toBe('bidiControl');
    }
    for (const c of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad']) {
      expect(nameProblem(`a${c}b.pdf`), JSON.stringify(c)).toBe('zeroWidth');
      expect(nameProblem(`${c}ab.pdf`), JSON.stringify(c)).toBe('zeroWidth');
    }
  });

  it('stores and compares the NFC form: "e\\u0301" and "é" are one name', () => {
    expect(normaliseName('e\u0301.txt')).toBe('é.txt');
    expect(nameKey('E\u0301.TXT')).toBe(nameKey('é.txt'));
    expect(typedName('  Caf\u0065\u0301  ')).toEqual({ name: 'Café', problem: undefined });
  });

  it('the rule judges the NFC form and is idempotent on what it accepts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), (raw) => {
        const { name, problem } = typedName(raw);
        expect(name).toBe(name.normalize('NFC'));
        expect(typedName(name)).toEqual({ name, problem });
        expect(nameProblem(raw.normalize('NFD'))).toBe(nameProblem(raw.normalize('NFC')));
        if (problem === undefined) {
          expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
          expect(NAME_PROBLEMS).not.toContain(nameProblem(name));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every refused name has one of the listed problems, and an accepted name none of the refused characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: TRICKY, maxLength: 20 }), (raw) => {
        const problem = nameProblem(raw);
        if (problem !== undefined) expect(NAME_PROBLEMS).toContain(problem);
        // eslint-disable-next-line no-control-regex
        else expect(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069\u200b\ufeff<>:"/\\|?*]/.test(raw)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
