import { ROOM_ROLES } from '@shared/contract/rooms';
import { describe, expect, it } from 'vitest';
import { commentMay, e2eSelectionMay, roomMay } from './room-may';

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

describe('commentMay (issue 31 §1)', () => {
  it('the writing roles edit and delete their own; an OWNER deletes anyone’s; VIEWER and PREVIEWER only read', () => {
    expect(ROOM_ROLES.map((r) => [r, commentMay(r, true), commentMay(r, false)])).toEqual([
      ['OWNER', { edit: true, delete: true }, { edit: false, delete: true }],
      ['EDITOR', { edit: true, delete: true }, { edit: false, delete: false }],
      ['VIEWER', { edit: false, delete: false }, { edit: false, delete: false }],
      ['PREVIEWER', { edit: false, delete: false }, { edit: false, delete: false }],
    ]);
    expect(commentMay(undefined, true)).toEqual({ edit: false, delete: false });
  });
});

describe('e2eSelectionMay (a Secure room’s selection toolbar, issue 32 §2)', () => {
  const opened = [{ name: 'a.txt' }, { name: 'Drafts' }];
  it('OWNER and EDITOR get ZIP, Move and Delete; VIEWER only the ZIP; PREVIEWER nothing', () => {
    expect(ROOM_ROLES.map((r) => [r, e2eSelectionMay(r, opened)])).toEqual([
      ['OWNER', { zip: true, move: true, delete: true }],
      ['EDITOR', { zip: true, move: true, delete: true }],
      ['VIEWER', { zip: true, move: false, delete: false }],
      ['PREVIEWER', { zip: false, move: false, delete: false }],
    ]);
    expect(e2eSelectionMay(undefined, opened)).toEqual({ zip: false, move: false, delete: false });
  });

  it('a chosen name that did not open: no Move (its name cannot be checked in the target), Delete still', () => {
    expect(e2eSelectionMay('OWNER', [...opened, { name: null }])).toEqual({ zip: true, move: false, delete: true });
  });
});
