import type { SendProblem, SendProblemCode } from './send-rules';

// Test fixture (tests of shared/rules and of the clients' texts), not used by the product.
/** One problem of each code; `satisfies` makes a new rule without a sample a type error. */
export const SAMPLES = {
  recipientsRequired: { code: 'recipientsRequired', field: 'recipients' },
  invalidEmail: { code: 'invalidEmail', field: 'additionalRecipients', invalid: ['nope'] },
  tooManyRecipients: { code: 'tooManyRecipients', field: 'recipients', maxRecipients: 100, count: 101 },
  recipientNotAllowed: { code: 'recipientNotAllowed', field: 'recipients', recipients: ['x@banned.example'] },
  subjectRequired: { code: 'subjectRequired', field: 'subject' },
  subjectTooLong: { code: 'subjectTooLong', field: 'subject', maxLength: 255, length: 256 },
  bodyTooLong: { code: 'bodyTooLong', field: 'body', maxLength: 100, length: 101 },
  messageNotEncrypted: { code: 'messageNotEncrypted', field: 'body' },
  filesOrMessageRequired: { code: 'filesOrMessageRequired', field: 'files' },
  tooManyFiles: { code: 'tooManyFiles', field: 'files', maxFiles: 500, count: 501 },
  zeroByteFile: { code: 'zeroByteFile', field: 'files', name: 'e.txt' },
  duplicateFileName: { code: 'duplicateFileName', field: 'files', name: 'd.txt' },
  invalidFileName: { code: 'invalidFileName', field: 'files', name: 'a:b', maxLength: 255, nameProblem: 'invalidCharacters' },
  invalidMimeType: { code: 'invalidMimeType', field: 'files', name: 'a.bin', mimeType: 'nonsense' },
  blockedFileType: { code: 'blockedFileType', field: 'files', name: 'a.exe', by: 'extension', extension: 'exe', mimeType: 'application/octet-stream' },
  validityOutOfRange: { code: 'validityOutOfRange', field: 'validityDays', min: 1, max: 30 },
  validityNotChoosable: { code: 'validityNotChoosable', field: 'validityDays', validityDays: 90 },
  validityNotExpiring: { code: 'validityNotExpiring', field: 'validityDays' },
  noSecurityLevelAllowed: { code: 'noSecurityLevelAllowed', field: 'securityLevel' },
  securityLevelNotAllowed: { code: 'securityLevelNotAllowed', field: 'securityLevel', allowed: [10, 30] },
} satisfies { [C in SendProblemCode]: Extract<SendProblem, { code: C }> };
