import { describe, expect, it } from 'vitest';
import { ROOM_NAME_MAX, ROOM_PERMISSIONS, ROOM_ROLES, roomNameProblem } from './rooms';

describe('data-room contract', () => {
  it('the role table is SPEC §6, row by row', () => {
    const may = (role: (typeof ROOM_ROLES)[number]) =>
      Object.entries(ROOM_PERMISSIONS[role])
        .filter(([, allowed]) => allowed)
        .map(([permission]) => permission);
    expect(may('OWNER')).toEqual(['preview', 'download', 'upload', 'edit', 'delete', 'activity', 'manageAccess']);
    expect(may('EDITOR')).toEqual(['preview', 'download', 'upload', 'edit', 'delete']);
    expect(may('VIEWER')).toEqual(['preview', 'download']);
    expect(may('PREVIEWER')).toEqual(['preview']);
  });

  it('names per SPEC §5: the one name rule on the typed name, spaces around it dropped', () => {
    expect(roomNameProblem('Quarterly report 2026.pdf')).toBeNull();
    expect(roomNameProblem('  Plans  ')).toBeNull();
    expect(roomNameProblem('Ünïcödé – 名前')).toBeNull();
    expect(roomNameProblem(' ')).toBe('blank');
    for (const c of ['\\', '/', ':', '*', '?', '"', '<', '>', '|', '\u0000', '\n', '\u007f']) expect(roomNameProblem(`a${c}b`)).toBe('invalidCharacters');
    expect(roomNameProblem('x'.repeat(ROOM_NAME_MAX))).toBeNull();
    expect(roomNameProblem('x'.repeat(ROOM_NAME_MAX + 1))).toBe('tooLong');
    // Counted in UTF-16 units (NTFS's limit), as delivery file names are.
    expect(roomNameProblem('😀'.repeat(ROOM_NAME_MAX / 2 - 0.5))).toBeNull();
    expect(roomNameProblem('😀'.repeat(ROOM_NAME_MAX))).toBe('tooLong');
    for (const name of ['con', 'NUL.txt', 'com1', 'LPT9.log']) expect(roomNameProblem(name)).toBe('reservedName');
    for (const name of ['.', '..']) expect(roomNameProblem(name)).toBe('invalidCharacters');
    for (const name of ['ends.', 'a.b.']) expect(roomNameProblem(name)).toBe('trailingDotOrSpace');
    expect(roomNameProblem('console')).toBeNull();
    // Issue 28: what disguises or doubles a name.
    expect(roomNameProblem('invoice\u202Efdp.exe')).toBe('bidiControl');
    expect(roomNameProblem('a\u2066b')).toBe('bidiControl');
    expect(roomNameProblem('a\u200bb')).toBe('zeroWidth');
    expect(roomNameProblem('\ufeffPlans')).toBe('zeroWidth');
    expect(roomNameProblem('\u00a0Plans')).toBe('surroundingBlanks');
  });
});
