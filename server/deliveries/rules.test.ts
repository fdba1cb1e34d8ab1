import { MS_PER_DAY } from '@shared/contract/constants';
import { MAX_SUBJECT_LENGTH } from '@shared/contract/deliveries';
import { sendConfigFixture } from '@shared/rules/test-fixtures';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/http-error';
import { checkAnotherFile, checkContent, checkFile, checkMessage, checkNotBanned, resolveSecurityLevel, resolveValidityDays } from './rules';

const config = sendConfigFixture({ allowSecurityLevel1: false, deliveryCleanupExpirationMax: 30 * MS_PER_DAY });
const message = { recipients: ['bob@example.test'], additionalRecipients: [], subject: 'Figures', body: 'Hello' };

/** The HttpError `fn` throws, as the error handler would answer it. */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.statusCode, error: error.errorClass, message: error.message, metadata: error.metadata };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('server send rules: the shared rules, answered through the rule table', () => {
  it('returns the normalised values when every rule holds', () => {
    expect(checkMessage({ ...message, recipients: [' Bob@Example.test'], additionalRecipients: ['bob@example.test', 'Carol@example.test'] })).toEqual({
      recipients: ['bob@example.test'],
      additional: ['carol@example.test'],
    });
    expect(checkMessage({ ...message, subject: '', body: '' }, true).recipients).toEqual(['bob@example.test']);
    expect(resolveSecurityLevel(undefined, config)).toBe(10);
    expect(resolveValidityDays(undefined, config)).toBe(30);
    expect(checkFile({ name: 'Cafe\u0301.txt', size: 3, mimeType: 'text/plain' }, { blockedExtensions: [], blockedMimeTypes: [] })).toBe('Caf\u00e9.txt');
    expect(() => checkAnotherFile('b.txt', ['a.txt'])).not.toThrow();
    expect(() => checkContent(0, '', true)).not.toThrow();
    expect(() => checkNotBanned(['a@ok.test'], ['@evil.test'])).not.toThrow();
  });

  it('answers a broken rule with its §8 class, status and figures', () => {
    expect(refusal(() => checkMessage({ ...message, recipients: [] }))).toEqual({
      status: 400,
      error: 'ValidationException',
      message: 'At least one recipient is required',
      metadata: { field: 'recipients', reason: 'required' },
    });
    expect(refusal(() => checkMessage({ ...message, subject: 'x'.repeat(MAX_SUBJECT_LENGTH + 1) }))).toMatchObject({
      status: 400,
      error: 'MaxSubjectLengthException',
      metadata: { maxLength: MAX_SUBJECT_LENGTH, length: MAX_SUBJECT_LENGTH + 1 },
    });
    expect(refusal(() => checkMessage(message, true))).toMatchObject({ error: 'ValidationException', metadata: { field: 'subject', reason: 'encryptedMessage' } });
    expect(refusal(() => checkNotBanned(['b@evil.test'], ['@evil.test']))).toMatchObject({ error: 'RecipientNotAllowedException', metadata: { recipients: ['b@evil.test'] } });
    expect(refusal(() => checkContent(0, ' ', false))).toMatchObject({ error: 'DeliveryWithoutFilesNotAllowedException', metadata: { fileCount: 0 } });
    expect(refusal(() => resolveSecurityLevel(0, config))).toMatchObject({ error: 'ValidationException', metadata: { reason: 'notAllowed', allowed: [10, 20, 30] } });
    expect(refusal(() => resolveValidityDays(31, config))).toMatchObject({ metadata: { field: 'validityDays', reason: 'outOfRange', min: 1, max: 30 } });
    expect(refusal(() => checkFile({ name: 'run.exe', size: 3, mimeType: '' }, { blockedExtensions: ['exe'], blockedMimeTypes: [] }))).toMatchObject({
      error: 'FileNotAllowedException',
      metadata: { name: 'run.exe', extension: 'exe' },
    });
    expect(refusal(() => checkFile({ name: 'a.txt', size: 0, mimeType: 'text/plain' }, { blockedExtensions: [], blockedMimeTypes: [] }))).toMatchObject({
      metadata: { field: 'size', reason: 'zeroByteFile', name: 'a.txt' },
    });
    expect(refusal(() => checkAnotherFile('A.TXT', ['a.txt']))).toMatchObject({ metadata: { field: 'name', reason: 'duplicateFileName', name: 'A.TXT' } });
    expect(refusal(() => checkAnotherFile('z.txt', Array.from({ length: 500 }, (_, i) => `${i}.txt`)))).toMatchObject({ metadata: { reason: 'tooManyFiles', maxFiles: 500 } });
  });
});
