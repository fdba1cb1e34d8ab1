import { ApiError } from '@shared/api/api-error';
import { FILE_NAME_PROBLEMS } from '@shared/contract/deliveries';
import { SEND_ERROR_CODES, toSendError, type SendError, type SendProblem } from '@shared/deliveries';
import { createI18n } from '@shared/i18n/i18n';
import { describe, expect, it } from 'vitest';
import { blockedFileRows, problemMessage, problemsText, sendErrorMessage } from './send-messages';

const apiError = (status: number, error: string, metadata: Record<string, unknown>) =>
  new ApiError({ status, message: error, headers: new Headers(), error: { uuid: 'u', requestUri: '/x', error, message: error, metadata } });

/** One of each SPEC §5 problem the shared rules produce. */
const PROBLEMS: SendProblem[] = [
  { code: 'recipientsRequired', field: 'recipients' },
  { code: 'invalidEmail', field: 'recipients', invalid: ['a', 'b'] },
  { code: 'tooManyRecipients', field: 'recipients', maxRecipients: 100, count: 101 },
  { code: 'subjectRequired', field: 'subject' },
  { code: 'subjectTooLong', field: 'subject', maxLength: 255, length: 300 },
  { code: 'bodyTooLong', field: 'body', maxLength: 100_000, length: 100_001 },
  { code: 'filesOrMessageRequired', field: 'files' },
  { code: 'tooManyFiles', field: 'files', maxFiles: 500, count: 501 },
  { code: 'zeroByteFile', field: 'files', name: 'e.txt' },
  { code: 'duplicateFileName', field: 'files', name: 'd.txt' },
  { code: 'invalidFileName', field: 'files', name: 'a:b', maxLength: 255 },
  { code: 'validityOutOfRange', field: 'validityDays', min: 1, max: 365 },
  { code: 'validityNotChoosable', field: 'validityDays', validityDays: 30 },
  { code: 'validityNotExpiring', field: 'validityDays' },
  { code: 'noSecurityLevelAllowed', field: 'securityLevel' },
  { code: 'securityLevelNotAllowed', field: 'securityLevel', allowed: [0] },
  { code: 'recipientNotAllowed', field: 'recipients', recipients: ['x@banned.example'] },
  { code: 'messageNotEncrypted', field: 'subject' },
  { code: 'invalidMimeType', field: 'files', name: 'a.bin', mimeType: 'nonsense' },
  { code: 'blockedFileType', field: 'files', name: 'a.exe', by: 'extension', extension: 'exe', mimeType: 'application/octet-stream' },
  { code: 'blockedFileType', field: 'files', name: 'a.mp4', by: 'mimeType', extension: 'mp4', mimeType: 'video/mp4' },
  ...FILE_NAME_PROBLEMS.map((nameProblem): SendProblem => ({ code: 'invalidFileName', field: 'files', name: 'CON', maxLength: 255, nameProblem })),
];

describe('send messages (SPEC §5 problems, §8 refusals)', async () => {
  const { i18n, ready } = createI18n('en');
  await ready;
  const text = (m: { key: string; values?: Record<string, unknown> }) => i18n.t(m.key, m.values);

  it('has an English text with its figures for every form problem', () => {
    for (const problem of PROBLEMS) {
      const message = problemMessage(problem);
      expect(i18n.exists(message.key) || i18n.exists(`${message.key}_other`), message.key).toBe(true);
      expect(text(message)).not.toContain('{{');
    }
    expect(text(problemMessage(PROBLEMS[1]!))).toBe('Not valid email addresses: a, b');
    expect(text(problemMessage(PROBLEMS[11]!))).toBe('Enter a number of days between 1 and 365.');
  });

  it('has a text for every SendError code; figures are filled in, sizes formatted', () => {
    for (const code of SEND_ERROR_CODES) {
      const message = sendErrorMessage({ code, errorClass: undefined, status: undefined, message: '', metadata: {} } as SendError);
      expect(i18n.exists(message.key), `${code} → ${message.key}`).toBe(true);
    }
    const quota = toSendError(apiError(507, 'GlobalQuotaReachedException', { spaceAvailable: 1024, spaceRequired: 4096 }));
    expect(text(sendErrorMessage(quota, (n) => `${n / 1024} KB`))).toBe('The storage is full: 1 KB available, 4 KB required.');
    const blocked = toSendError(apiError(400, 'FileNotAllowedException', { name: 'tool.exe', extension: 'exe', mimeType: '' }));
    expect(text(sendErrorMessage(blocked))).toBe('tool.exe is blocked by company policy.');
    const banned = toSendError(apiError(400, 'RecipientNotAllowedException', { recipients: ['x@banned.example'] }));
    expect(text(sendErrorMessage(banned))).toBe('These recipients are not allowed: x@banned.example');
  });

  it('shows a server ValidationException as the same problem the form would show, and the level 3/4 refusals as their own texts', () => {
    const subject = toSendError(apiError(400, 'ValidationException', { field: 'subject', reason: 'required' }));
    expect(sendErrorMessage(subject)).toEqual({ key: 'send:problems.subjectRequired' });
    const reserved = toSendError(apiError(400, 'ValidationException', { field: 'name', reason: 'invalidFileName', nameProblem: 'reservedName', name: 'CON.txt', maxLength: 255 }));
    expect(text(sendErrorMessage(reserved))).toBe('CON.txt is a name Windows reserves for devices (CON, PRN, AUX, NUL, COM1–9, LPT1–9).');
    const unknownReason = toSendError(apiError(400, 'ValidationException', { field: 'name', reason: 'invalidFileName', nameProblem: 'somethingNew', name: 'x', maxLength: 255 }));
    expect(sendErrorMessage(unknownReason).key).toBe('send:problems.invalidFileName');
    expect(sendErrorMessage({ ...toSendError(new Error('x')), code: 'keyChanged' } as never)).toMatchObject({ key: 'send:errors.keyChanged' });
    expect(text(sendErrorMessage({ ...toSendError(new Error('x')), code: 'encryption' } as never))).toContain('Nothing was sent');
    expect(sendErrorMessage(toSendError(new Error('boom')))).toEqual({ key: 'send:errors.unknown' });
    expect(text(sendErrorMessage(toSendError(new Error('boom'))))).toBe('Error occurred');
  });

  it('puts one field\'s problems in one line, forbidden files named together; each forbidden row says why (both send pages)', () => {
    const t = i18n.t.bind(i18n) as never;
    const found: SendProblem[] = [
      { code: 'zeroByteFile', field: 'files', name: 'empty.txt' },
      { code: 'blockedFileType', field: 'files', name: 'setup.exe', by: 'extension', extension: 'exe', mimeType: '' },
      { code: 'blockedFileType', field: 'files', name: 'tool.bat', by: 'extension', extension: 'bat', mimeType: '' },
    ];
    const line = problemsText(found, t)!;
    expect(line.startsWith(text(problemMessage(found[0]!)))).toBe(true);
    expect(line).toContain('setup.exe, tool.bat');
    expect(problemsText([], t)).toBeUndefined();
    const rows = blockedFileRows(found, t);
    expect([...rows.keys()]).toEqual(['setup.exe', 'tool.bat']);
    expect(rows.get('setup.exe')).toBe(text(problemMessage(found[1]!)));
  });
});
