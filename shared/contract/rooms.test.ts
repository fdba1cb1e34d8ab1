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

  it('names per SPEC §5: invalid characters, length, reserved names', () => {
    expect(roomNameProblem('Quarterly report 2026.pdf')).toBeNull();
    expect(roomNameProblem('  Plans  ')).toBeNull();
    expect(roomNameProblem('Ünïcödé – 名前')).toBeNull();
    expect(roomNameProblem(' ')).toBe('empty');
    for (const c of ['\\', '/', ':', '*', '?', '"', '<', '>', '|', '\u0000', '\n', '\u007f']) expect(roomNameProblem(`a${c}b`)).toBe('invalidCharacters');
    expect(roomNameProblem('x'.repeat(ROOM_NAME_MAX))).toBeNull();
    expect(roomNameProblem('x'.repeat(ROOM_NAME_MAX + 1))).toBe('tooLong');
    // Counted in characters, not UTF-16 units.
    expect(roomNameProblem('😀'.repeat(ROOM_NAME_MAX))).toBeNull();
    for (const name of ['.', '..', 'con', 'NUL.txt', 'com1', 'LPT9.log', 'ends.', 'a.b.']) expect(roomNameProblem(name)).toBe('reserved');
    expect(roomNameProblem('console')).toBeNull();
  });
});
