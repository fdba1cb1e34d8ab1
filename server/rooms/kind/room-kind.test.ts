// The one guard of a room's kind (issue 31 §0): one reading of the flag, one status per reason.
import { ROOM_KIND_ERROR_REASONS } from '@shared/contract/rooms';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/http-error';
import { isSecureRoom, requireRoomKind, roomKindFlag, roomKindOf, roomKindRefusal } from './room-kind';

const plain = { encrypted: 0 };
const secure = { encrypted: 1 };

/** The HttpError the call throws (fails the test when it throws nothing or something else). */
function refusal(call: () => void): HttpError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('expected a refusal');
}

describe('room kind', () => {
  it('reads the stored flag, also as PostgreSQL hands raw integers back (strings, bigints)', () => {
    expect(roomKindOf(plain)).toBe('plain');
    expect(roomKindOf(secure)).toBe('secure');
    expect(roomKindOf({ encrypted: '1' })).toBe('secure');
    expect(roomKindOf({ encrypted: 1n })).toBe('secure');
    expect(roomKindOf({ encrypted: '0' })).toBe('plain');
    expect(isSecureRoom(secure)).toBe(true);
    expect(isSecureRoom(plain)).toBe(false);
  });

  it('stores the flag each kind reads back', () => {
    expect(roomKindOf({ encrypted: roomKindFlag('secure') })).toBe('secure');
    expect(roomKindOf({ encrypted: roomKindFlag('plain') })).toBe('plain');
  });

  it('lets a room of the needed kind through', () => {
    expect(() => requireRoomKind(plain, 'plain')).not.toThrow();
    expect(() => requireRoomKind(secure, 'secure')).not.toThrow();
  });

  it('refuses a Secure room on a plain call: 409 ConflictException, reason encryptedRoom, a message that says where to open it', () => {
    const error = refusal(() => requireRoomKind(secure, 'plain'));
    expect(error.statusCode).toBe(409);
    expect(error.errorClass).toBe('ConflictException');
    expect(error.metadata).toEqual({ reason: 'encryptedRoom' });
    expect(error.message).toBe('This is a Secure room (end-to-end encrypted): open it under Secure rooms');
  });

  it('refuses a plain room on a Secure-room call: 409 ConflictException, reason notEncrypted', () => {
    const error = refusal(() => requireRoomKind(plain, 'secure'));
    expect(error.statusCode).toBe(409);
    expect(error.errorClass).toBe('ConflictException');
    expect(error.metadata).toEqual({ reason: 'notEncrypted' });
  });

  it('a call’s own message keeps the reason and the status', () => {
    const error = refusal(() => requireRoomKind(secure, 'plain', 'No ZIP of a Secure room'));
    expect(error.message).toBe('No ZIP of a Secure room');
    expect([error.statusCode, error.metadata]).toEqual([409, { reason: 'encryptedRoom' }]);
  });

  it('answers only the reasons the contract lists', () => {
    const reasons = (['plain', 'secure'] as const).map((kind) => roomKindRefusal(kind).metadata['reason']);
    expect([...reasons].sort()).toEqual([...ROOM_KIND_ERROR_REASONS].sort());
  });
});
