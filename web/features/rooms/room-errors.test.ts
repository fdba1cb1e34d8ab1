import de from '@locales/de/rooms.json';
import en from '@locales/en/rooms.json';
import fr from '@locales/fr/rooms.json';
import { ApiError } from '@shared/api/api-error';
import { CRYPTO_ERROR_CODES } from '@shared/crypto/errors';
import { describe, expect, it } from 'vitest';
import { checkedRoomName, NameTakenError, readableRoomName, RoomNameError, roomErrorText, roomUploadFailure } from './room-errors';

/** An answer in the SPEC §8 shape, as server/rooms sends it (server/README "Data rooms"). */
const refusal = (status: number, error: string, metadata: Record<string, unknown> = {}) =>
  new ApiError({ status, message: error, error: { uuid: 'u', requestUri: '/api/2/rooms', error, message: error, metadata }, headers: new Headers() });

const textOf = (key: string): unknown => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);

describe('roomErrorText (SPEC §8 data-room errors)', () => {
  const cases: [ApiError | Error, string, string | undefined][] = [
    [refusal(400, 'ValidationException', { field: 'name', reason: 'invalidFileName', nameProblem: 'invalidCharacters' }), 'errors.name.invalidCharacters', 'name'],
    [refusal(400, 'ValidationException', { field: 'name', reason: 'invalidFileName', nameProblem: 'reservedName' }), 'errors.name.reservedName', 'name'],
    [refusal(400, 'ValidationException', { field: 'name', reason: 'invalidFileName', nameProblem: 'bidiControl' }), 'errors.name.bidiControl', 'name'],
    [refusal(400, 'ValidationException', { field: 'name', reason: 'invalidFileName', nameProblem: 'somethingNew' }), 'errors.name.invalidCharacters', 'name'],
    [new RoomNameError('zeroWidth'), 'errors.name.zeroWidth', 'name'],
    [refusal(409, 'ConflictException', { reason: 'nameExists', kind: 'folder' }), 'errors.folderExists', 'name'],
    [refusal(409, 'ConflictException', { reason: 'nameExists', kind: 'room' }), 'errors.roomExists', 'name'],
    [refusal(409, 'ConflictException', { reason: 'nameExists', kind: 'file' }), 'errors.fileExists', 'name'],
    [refusal(507, 'InsufficientStorageException'), 'errors.storageFull', undefined],
    [refusal(400, 'InviteUserToShareException', { field: 'user', reason: 'notRegistered' }), 'errors.notRegistered', 'user'],
    [refusal(409, 'ConflictException', { reason: 'lastOwner' }), 'errors.lastOwner', undefined],
    [refusal(409, 'ConflictException', { reason: 'encryptedRoom' }), 'errors.secureRoom', undefined],
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

describe('a full storage names its figures (SPEC §8 GlobalQuotaReachedException, as a delivery does)', () => {
  it('507 with spaceAvailable/spaceRequired → storageFullFigures, sizes in the language; without figures → storageFull', () => {
    const quota = refusal(507, 'GlobalQuotaReachedException', { spaceAvailable: 1024, spaceRequired: 3 * 1024 * 1024 });
    expect(roomErrorText(quota, 'en')).toEqual({ key: 'errors.storageFullFigures', values: { spaceAvailable: '1\u00a0KB', spaceRequired: '3\u00a0MB' } });
    expect(roomErrorText(quota, 'fr').values).toEqual({ spaceAvailable: '1\u00a0Ko', spaceRequired: '3\u00a0Mo' });
    expect(textOf('errors.storageFullFigures')).toContain('{{spaceAvailable}}');
    expect(roomUploadFailure(quota, 'big.iso', 'en')).toEqual({ key: 'rooms:errors.storageFullFigures', values: { spaceAvailable: '1\u00a0KB', spaceRequired: '3\u00a0MB', name: 'big.iso' } });
    expect(roomUploadFailure(refusal(507, 'InsufficientStorageException'), 'a.txt', 'en')).toEqual({ key: 'rooms:errors.storageFull', values: { name: 'a.txt' } });
  });
});

describe('E2E row problems (rooms:e2e.problems)', () => {
  // Every code openE2eFolder or a download of a room file can end in: each has a text of its own in every language.
  const ROOM_CODES = ['room-name-invalid', 'room-metadata-invalid', 'room-metadata-signature-invalid', 'room-metadata-mismatch', 'contact-key-changed', 'room-file-key-unwrap-failed', 'room-version-rolled-back', 'room-version-chain-broken', 'room-signer-not-writer-then', 'room-member-list-version-unknown', 'room-member-list-invalid'];
  it.each([['de', de], ['en', en], ['fr', fr]] as const)('%s: a specific text per room code, the swapped file key included', (_lang, locale) => {
    const problems = (locale as { e2e: { problems: Record<string, string> } }).e2e.problems;
    for (const code of ROOM_CODES) {
      expect(CRYPTO_ERROR_CODES).toContain(code);
      expect(problems[code], code).toBeTruthy();
      expect(problems[code]).not.toBe(problems.unknown);
    }
    expect(new Set(ROOM_CODES.map((c) => problems[c])).size).toBe(ROOM_CODES.length);
  });
});

describe('a name the browser found taken (E2E rooms compare decrypted names)', () => {
  it("stands at the name field with the holder's kind, not as a network failure", () => {
    expect(roomErrorText(new NameTakenError('folder'))).toEqual({ key: 'errors.folderExists', field: 'name' });
    expect(roomErrorText(new NameTakenError('file'))).toEqual({ key: 'errors.fileExists', field: 'name' });
    expect(roomErrorText(new Error('exists'))).toEqual({ key: 'errors.network' });
  });
});

describe('checkedRoomName (the one name rule before an E2E name is sealed)', () => {
  it('returns the stored form (spaces dropped, NFC) or throws RoomNameError with the problem', () => {
    expect(checkedRoomName('  Cafe\u0301 ')).toBe('Café');
    for (const [raw, problem] of [['invoice\u202Efdp.exe', 'bidiControl'], ['a\u200Bb', 'zeroWidth'], ['\uFEFFplans', 'zeroWidth'], ['a:b', 'invalidCharacters'], ['   ', 'blank']] as const) {
      expect(() => checkedRoomName(raw)).toThrow(RoomNameError);
      try {
        checkedRoomName(raw);
      } catch (error) {
        expect((error as RoomNameError).problem).toBe(problem);
      }
    }
  });
});

describe('readableRoomName (a decrypted E2E name the reader refuses)', () => {
  it('hides a name with disguising characters, keeps the others', () => {
    expect(readableRoomName('Plans: 2026?')).toBe('Plans: 2026?');
    for (const name of ['invoice\u202Efdp.exe', 'a\u200Bb', '\uFEFFx', 'two\nlines']) expect(readableRoomName(name)).toBeNull();
  });
});
