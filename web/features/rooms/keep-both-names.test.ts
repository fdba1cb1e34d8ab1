import { ROOM_NAME_MAX, roomNameProblem } from '@shared/contract/rooms';
import { describe, expect, it } from 'vitest';
import { keepBothNames, KEEP_BOTH_TRIES } from './keep-both-names';

describe('keepBothNames (version conflict › Keep both)', () => {
  it('numbers a taken name from 1, the number before the extension', () => {
    expect(keepBothNames('a.txt').slice(0, 3)).toEqual(['a (1).txt', 'a (2).txt', 'a (3).txt']);
    expect(keepBothNames('notes').slice(0, 2)).toEqual(['notes (1)', 'notes (2)']);
    expect(keepBothNames('archive.tar.gz')[0]).toBe('archive.tar (1).gz');
    expect(keepBothNames('.env')[0]).toBe('.env (1)');
  });

  it('counts a numbered name from its base and skips the taken name itself: "a (1).txt" → "a (2).txt", never "a (1) (1).txt"', () => {
    expect(keepBothNames('a (1).txt').slice(0, 2)).toEqual(['a (2).txt', 'a (3).txt']);
    expect(keepBothNames('A (2).TXT').slice(0, 2)).toEqual(['A (1).TXT', 'A (3).TXT']);
    expect(keepBothNames('a (1)').slice(0, 1)).toEqual(['a (2)']);
    // Only a " (n)" suffix is a number: "(1).txt" and "a(1).txt" are names of their own.
    expect(keepBothNames('(1).txt')[0]).toBe('(1) (1).txt');
    expect(keepBothNames('a(1).txt')[0]).toBe('a(1) (1).txt');
  });

  it('gives two files of one batch that meet the same taken name distinct names (walking on while the server says taken)', () => {
    // The folder holds a.txt; the batch is a.txt, a.txt, "a (1).txt": each takes the first candidate not yet taken.
    const taken = new Set(['a.txt']);
    const place = (name: string) => {
      const chosen = taken.has(name) ? keepBothNames(name).find((candidate) => !taken.has(candidate))! : name;
      taken.add(chosen);
      return chosen;
    };
    expect(['a.txt', 'a.txt', 'a (1).txt'].map(place)).toEqual(['a (1).txt', 'a (2).txt', 'a (3).txt']);
    expect(taken.size).toBe(4);
  });

  it('yields KEEP_BOTH_TRIES distinct valid names, shortened to stay within ROOM_NAME_MAX', () => {
    const long = `${'x'.repeat(ROOM_NAME_MAX - 4)}.txt`;
    const names = keepBothNames(long);
    expect(names).toHaveLength(KEEP_BOTH_TRIES);
    expect(new Set(names).size).toBe(KEEP_BOTH_TRIES);
    for (const name of names) {
      expect(roomNameProblem(name)).toBeNull();
      expect(name.endsWith(').txt')).toBe(true);
    }
    expect(names[99]).toBe(`${'x'.repeat(ROOM_NAME_MAX - 4 - 6)} (100).txt`);
    // UTF-16 units, as the server counts: an emoji stem is cut between characters, not inside one.
    const emoji = `${'😀'.repeat(ROOM_NAME_MAX)}`;
    expect(keepBothNames(emoji)[0]).toBe(`${'😀'.repeat((ROOM_NAME_MAX - 5) / 2)} (1)`);
    expect(roomNameProblem(keepBothNames(emoji)[0]!)).toBeNull();
  });
});
