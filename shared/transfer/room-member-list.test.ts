import type { RoomMemberList } from '@shared/crypto/room-members';
import { describe, expect, it } from 'vitest';
import { commentAuthorRefusal } from './room-member-list';

// A verified list (its signature is checked elsewhere: room-members.test.ts); only the members count here.
const list: RoomMemberList = {
  format: 1,
  roomId: 'room',
  version: 3,
  members: [
    { userId: 'editor', email: 'editor@example.test', role: 'EDITOR', signingKeyId: 'k1', encryptionKeyId: 'k2' },
    { userId: 'owner', email: 'owner@example.test', role: 'OWNER', signingKeyId: 'k3', encryptionKeyId: 'k4' },
    { userId: 'viewer', email: 'viewer@example.test', role: 'VIEWER', signingKeyId: 'k5', encryptionKeyId: 'k6' },
  ],
  signerUserId: 'owner',
  signerKeyId: 'k3',
  createdAt: '2026-11-29T20:00:00.000Z',
};

describe('commentAuthorRefusal (README section 7 "Comments": the author against the signed member list)', () => {
  it('the signed role counts over the server’s: an OWNER or EDITOR passes, a VIEWER the server calls EDITOR is refused', () => {
    expect(commentAuthorRefusal(list, { userUuid: 'owner', role: 'OWNER' })).toBeNull();
    expect(commentAuthorRefusal(list, { userUuid: 'editor', role: 'VIEWER' })).toBeNull();
    expect(commentAuthorRefusal(list, { userUuid: 'viewer', role: 'EDITOR' })).toBe('room-signer-not-writer');
  });

  it('a member the list does not hold while the server lists her (one it invented) is refused; a former member stays readable', () => {
    expect(commentAuthorRefusal(list, { userUuid: 'invented', role: 'EDITOR' })).toBe('room-signer-not-writer');
    expect(commentAuthorRefusal(list, { userUuid: 'gone', role: null })).toBeNull();
  });

  it('without a verified list the server’s role decides', () => {
    expect(commentAuthorRefusal(null, { userUuid: 'someone', role: 'EDITOR' })).toBeNull();
    expect(commentAuthorRefusal(null, { userUuid: 'someone', role: 'PREVIEWER' })).toBe('room-signer-not-writer');
  });
});
