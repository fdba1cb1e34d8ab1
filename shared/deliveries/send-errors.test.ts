import { toApiError } from '@shared/api/api-error';
import { describe, expect, it } from 'vitest';
import { ContactKeyChangedError, FileKeyUnwrapError } from '@shared/crypto/errors';
import { DeliverySendError, toSendError } from './send-errors';

const backend = (status: number, error: string, metadata: Record<string, unknown>) =>
  toApiError(status, '', new Headers(), { uuid: 'u', requestUri: '/api/2/x', error, message: `${error} message`, metadata });

describe('send errors (SPEC §8)', () => {
  it('maps each §8 class to its code with the figures', () => {
    expect(toSendError(backend(507, 'GlobalQuotaReachedException', { spaceAvailable: 0, spaceRequired: 100 }), { fileName: 'a.bin' })).toEqual({
      code: 'globalQuotaReached',
      errorClass: 'GlobalQuotaReachedException',
      status: 507,
      message: 'GlobalQuotaReachedException message',
      metadata: { spaceAvailable: 0, spaceRequired: 100 },
      fileName: 'a.bin',
    });
    const cases: [string, string][] = [
      ['DeliveryWithoutFilesNotAllowedException', 'deliveryWithoutFiles'],
      ['FileNotAllowedException', 'fileNotAllowed'],
      ['SubmitQuotaReachedException', 'submitQuotaReached'],
      ['MaxUploadSizeExceededException', 'maxUploadSizeExceeded'],
      ['TransferQuotaExceededException', 'transferQuotaExceeded'],
      ['MaxBodyLengthException', 'maxBodyLength'],
      ['MaxSubjectLengthException', 'maxSubjectLength'],
      ['RecipientNotAllowedException', 'recipientNotAllowed'],
      ['SenderNotLicensedException', 'senderNotLicensed'],
      ['InviteUserToShareException', 'inviteUserToShare'],
      ['AccessDescriptorNotFoundException', 'accessDescriptorNotFound'],
      ['ConflictException', 'conflict'],
      ['SomethingNewException', 'unknown'],
    ];
    for (const [errorClass, code] of cases) expect(toSendError(backend(400, errorClass, { a: 1 })), errorClass).toMatchObject({ code, errorClass, metadata: { a: 1 } });
  });

  it('a ValidationException with a known reason carries the form problem', () => {
    expect(toSendError(backend(400, 'ValidationException', { field: 'name', reason: 'duplicateFileName', name: 'a.pdf' }))).toMatchObject({
      code: 'validation',
      problem: { code: 'duplicateFileName', name: 'a.pdf' },
    });
    expect(toSendError(backend(400, 'ValidationException', { field: 'validityDays', reason: 'outOfRange', min: 1, max: 30 })).problem).toEqual({
      code: 'validityOutOfRange',
      field: 'validityDays',
      min: 1,
      max: 30,
    });
    expect(toSendError(backend(400, 'ValidationException', { field: 'x', reason: 'sha256Mismatch' })).problem).toBeUndefined();
  });

  it('falls back on the status, and tells network failures and cancels apart', () => {
    expect(toSendError(toApiError(404, 'Not Found', new Headers(), 'nope')).code).toBe('notFound');
    expect(toSendError(toApiError(500, 'Oops', new Headers(), 'nope')).code).toBe('unknown');
    expect(toSendError(new TypeError('Failed to fetch')).code).toBe('network');
    expect(toSendError(new DOMException('aborted', 'AbortError')).code).toBe('cancelled');
    const detail = toSendError(new Error('x'));
    expect(toSendError(new DeliverySendError(detail))).toBe(detail);
  });

  it('names crypto failures: a changed contact key apart from any other encryption failure', () => {
    expect(toSendError(new ContactKeyChangedError('changed'))).toMatchObject({ code: 'keyChanged', metadata: { cryptoCode: 'contact-key-changed' } });
    expect(toSendError(new FileKeyUnwrapError('nope'))).toMatchObject({ code: 'encryption', metadata: { cryptoCode: 'file-key-unwrap-failed' } });
    // Production bundles minify class names (`name` becomes e.g. "t"): still recognised.
    const minified = Object.assign(new ContactKeyChangedError('changed'), { name: 't' });
    expect(toSendError(minified).code).toBe('keyChanged');
    // A Node system error has an upper-case code and stays what it was.
    expect(toSendError(Object.assign(new Error('reset'), { code: 'ECONNRESET' })).code).toBe('unknown');
  });
});
