import { MAX_NAME_LENGTH, nameProblem } from '@shared/contract/names';
import { describe, expect, it } from 'vitest';
import { missingMessage, MISSING_NAMES_SHOWN, safeZipSegment, UNNAMED, ZipFolderNames, zipPath } from './zip-names';

describe('safeZipSegment (names inside a Secure room ZIP)', () => {
  it('keeps an ordinary name as it is', () => {
    expect(safeZipSegment('Annual report 2026.pdf')).toBe('Annual report 2026.pdf');
    expect(safeZipSegment('Übersicht – Q3.xlsx')).toBe('Übersicht – Q3.xlsx');
  });

  it('never lets a name step out of its folder: "..", ".", slashes and backslashes', () => {
    expect(safeZipSegment('..')).toBe(UNNAMED);
    expect(safeZipSegment('.')).toBe(UNNAMED);
    expect(safeZipSegment('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeZipSegment('..\\..\\boot.ini')).toBe('.._.._boot.ini');
    expect(safeZipSegment('/absolute')).toBe('_absolute');
    expect(safeZipSegment('a/b')).toBe('a_b');
  });

  it('replaces control characters and those Windows refuses; drops bidi and zero-width characters', () => {
    expect(safeZipSegment('a\u0000b\nc\u007f.txt')).toBe('a_b_c_.txt');
    expect(safeZipSegment('what?<x>:"y"|*.txt')).toBe('what__x___y___.txt');
    expect(safeZipSegment('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(safeZipSegment('in\u200bvoice.pdf')).toBe('invoice.pdf');
  });

  it('trims blanks and trailing dots, prefixes Windows device names, and is never empty', () => {
    expect(safeZipSegment('  notes.txt  ')).toBe('notes.txt');
    expect(safeZipSegment('a.txt.')).toBe('a.txt');
    expect(safeZipSegment('   ')).toBe(UNNAMED);
    expect(safeZipSegment('...')).toBe(UNNAMED);
    expect(safeZipSegment('CON')).toBe('_CON');
    expect(safeZipSegment('nul.txt')).toBe('_nul.txt');
  });

  it('answers names the product’s own name rule accepts, at most MAX_NAME_LENGTH long', () => {
    const hostile = ['..', 'a/../b', '\u0001', 'x'.repeat(400), '😀'.repeat(200), 'COM1.tar.gz', ' . ', 'e\u0301t\u00e9'];
    for (const raw of hostile) {
      const safe = safeZipSegment(raw);
      expect(nameProblem(safe), `${JSON.stringify(raw)} → ${JSON.stringify(safe)}`).toBeUndefined();
      expect(safe.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    }
    // No half surrogate pair is left at the cut.
    expect(safeZipSegment('😀'.repeat(200)).endsWith('😀')).toBe(true);
  });
});

describe('ZipFolderNames (one folder of the ZIP)', () => {
  it('numbers a name an earlier entry took, case and Unicode form folded', () => {
    const names = new ZipFolderNames();
    expect(['a.txt', 'A.TXT', 'a.txt', 'a (1).txt'].map((n) => names.take(n))).toEqual(['a.txt', 'A (1).TXT', 'a (2).txt', 'a (3).txt']);
    const accents = new ZipFolderNames();
    expect([accents.take('\u00e9t\u00e9'), accents.take('e\u0301te\u0301')]).toEqual(['\u00e9t\u00e9', '\u00e9t\u00e9 (1)']);
  });

  it('numbers names the cleaning made equal, and folders and files share the names', () => {
    const names = new ZipFolderNames();
    expect([names.take('a/b'), names.take('a\\b'), names.take('a?b')]).toEqual(['a_b', 'a_b (1)', 'a_b (2)']);
    const mixed = new ZipFolderNames();
    expect([mixed.take('Reports'), mixed.take('reports')]).toEqual(['Reports', 'reports (1)']);
  });

  it('keeps folders apart: the same name in two folders is not numbered', () => {
    const one = new ZipFolderNames();
    const two = new ZipFolderNames();
    expect([one.take('x.bin'), two.take('x.bin')]).toEqual(['x.bin', 'x.bin']);
    expect(zipPath(['Top', 'Inner'], 'x.bin')).toBe('Top/Inner/x.bin');
    expect(zipPath([], 'x.bin')).toBe('x.bin');
  });
});

describe('missingMessage (SPEC §8 partial download failure)', () => {
  it('is nothing when every file and folder made it', () => {
    expect(missingMessage({ files: [], folders: [] })).toBeUndefined();
  });

  it('counts folders (with a trailing slash) and files, and names at most MISSING_NAMES_SHOWN', () => {
    expect(missingMessage({ files: ['2026/broken.bin'], folders: ['2026/Q1'] })).toEqual({ key: 'rooms:e2eZip.partialFailed', values: { count: 2, names: '2026/Q1/, 2026/broken.bin' } });
    const many = Array.from({ length: MISSING_NAMES_SHOWN + 2 }, (_, i) => `f${i}.bin`);
    const message = missingMessage({ files: many, folders: [] })!;
    expect(message.values).toEqual({ count: MISSING_NAMES_SHOWN + 2, names: `${many.slice(0, MISSING_NAMES_SHOWN).join(', ')}, …` });
  });
});
