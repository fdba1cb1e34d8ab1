import { ROOM_ROLES } from '@shared/contract/rooms';
import { describe, expect, it } from 'vitest';
import { roomMay } from './room-may';

describe('roomMay (the SPEC §6 table, not role names)', () => {
  it('answers the table: OWNER manages access, EDITOR writes, VIEWER downloads, PREVIEWER only previews', () => {
    expect(ROOM_ROLES.filter((r) => roomMay(r, 'manageAccess'))).toEqual(['OWNER']);
    expect(ROOM_ROLES.filter((r) => roomMay(r, 'upload'))).toEqual(['OWNER', 'EDITOR']);
    expect(ROOM_ROLES.filter((r) => roomMay(r, 'download'))).toEqual(['OWNER', 'EDITOR', 'VIEWER']);
    expect(ROOM_ROLES.filter((r) => roomMay(r, 'preview'))).toEqual([...ROOM_ROLES]);
  });

  it('no role (still loading, or none): nothing', () => {
    expect(roomMay(undefined, 'preview')).toBe(false);
  });
});
