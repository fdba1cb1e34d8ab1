import en from '@locales/en/rooms.json';
import { ApiError } from '@shared/api/api-error';
import { describe, expect, it } from 'vitest';
import { roomErrorText } from './room-errors';

/** An answer in the SPEC §8 shape, as server/rooms sends it (server/README "Data rooms"). */
const refusal = (status: number, error: string, metadata: Record<string, unknown> = {}) =>
  new ApiError({ status, message: error, error: { uuid: 'u', requestUri: '/api/2/rooms', error, message: error, metadata }, headers: new Headers() });

const textOf = (key: string): unknown => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);

describe('roomErrorText (SPEC §8 data-room errors)', () => {
  const cases: [ApiError | Error, string, string | undefined][] = [
    [refusal(400, 'ValidationException', { field: 'name', reason: 'invalidCharacters' }), 'errors.name.invalidCharacters', 'name'],
    [refusal(400, 'ValidationException', { field: 'name', reason: 'reserved' }), 'errors.name.reserved', 'name'],
    [refusal(409, 'ConflictException', { reason: 'nameExists', kind: 'folder' }), 'errors.folderExists', 'name'],
    [refusal(409, 'ConflictException', { reason: 'nameExists', kind: 'room' }), 'errors.roomExists', 'name'],
    [refusal(409, 'ConflictException', { reason: 'nameExists', kind: 'file' }), 'errors.fileExists', 'name'],
    [refusal(507, 'InsufficientStorageException'), 'errors.storageFull', undefined],
    [refusal(400, 'InviteUserToShareException', { field: 'user', reason: 'notRegistered' }), 'errors.notRegistered', 'user'],
    [refusal(409, 'ConflictException', { reason: 'lastOwner' }), 'errors.lastOwner', undefined],
    [refusal(403, 'AccessDeniedException'), 'errors.forbidden', undefined],
    [refusal(400, 'ValidationException', { field: 'roomUuid', reason: 'moveToOtherRoom' }), 'errors.moveToOtherRoom', undefined],
    [refusal(400, 'ValidationException', { field: 'parentUuid', reason: 'moveIntoItself' }), 'errors.moveIntoItself', undefined],
    [refusal(404, 'NotFoundException'), 'errors.notFound', undefined],
    [refusal(400, 'ValidationException', { field: 'cursor' }), 'errors.invalid', undefined],
    [refusal(500, 'InternalServerException'), 'errors.general', undefined],
    [new TypeError('Failed to fetch'), 'errors.network', undefined],
  ];
  it.each(cases)('%s → %s at %s', (error, key, field) => {
    const text = roomErrorText(error);
    expect(text.key).toBe(key);
    expect(text.field).toBe(field);
    expect(typeof textOf(text.key)).toBe('string');
  });
});
