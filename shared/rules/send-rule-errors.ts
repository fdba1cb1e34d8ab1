import { FILE_NAME_PROBLEMS, type FileNameProblem } from '@shared/contract/deliveries';
import type { ErrorClass } from '@shared/contract/errors';
import { isSecurityLevel } from '@shared/contract/security-levels';
import type { SendProblem, SendProblemCode } from './send-rules';

/**
 * The one table from a broken send rule (SPEC §5, send-rules.ts) to its SPEC §8 error: the class
 * and HTTP status the server answers with, the `message` and `metadata` figures it sends, and the
 * text key (namespace `send`) the web client shows. The server builds its error answers from it
 * (server/deliveries/rules.ts → `sendRuleError`), the clients turn a `ValidationException` back into
 * the same problem with it (`problemFromValidation`, used by send-errors.ts). Pure: the server may
 * import it (eslint.config.mjs, "shared-pure").
 */

type ProblemOf<C extends SendProblemCode> = Extract<SendProblem, { code: C }>;

export interface SendRuleError<C extends SendProblemCode> {
  errorClass: ErrorClass;
  status: number;
  /** ValidationException only: `metadata.reason`, by which clients recognise the rule. */
  reason?: string;
  /** The server's `message` (English, safe to show; the clients show `textKey` instead). */
  message: (problem: ProblemOf<C>) => string;
  /** Key (namespace `send`) of the message the web client shows for this problem. */
  textKey: (problem: ProblemOf<C>) => string;
  /** The figures in the error's `metadata` (with `field` and `reason` for a ValidationException). */
  metadata: (problem: ProblemOf<C>) => Record<string, unknown>;
  /** A ValidationException's metadata back to the problem; undefined when it is not this rule. */
  fromMetadata?: (metadata: Record<string, unknown>) => ProblemOf<C> | undefined;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isFileNameProblem = (v: unknown): v is FileNameProblem => FILE_NAME_PROBLEMS.some((p) => p === v);

const VALIDATION = { errorClass: 'ValidationException', status: 400 } as const;

export const SEND_RULE_ERRORS: { [C in SendProblemCode]: SendRuleError<C> } = {
  recipientsRequired: {
    ...VALIDATION,
    reason: 'required',
    message: () => 'At least one recipient is required',
    textKey: () => 'problems.recipientsRequired',
    metadata: () => ({ field: 'recipients', reason: 'required' }),
    fromMetadata: (m) => (m.field === 'recipients' ? { code: 'recipientsRequired', field: 'recipients' } : undefined),
  },
  invalidEmail: {
    ...VALIDATION,
    reason: 'invalidEmail',
    message: () => 'Invalid email address',
    textKey: () => 'problems.invalidEmail',
    metadata: (p) => ({ field: p.field, reason: 'invalidEmail', invalid: p.invalid }),
    fromMetadata: (m) => ({ code: 'invalidEmail', field: m.field === 'additionalRecipients' ? 'additionalRecipients' : 'recipients', invalid: strings(m.invalid) }),
  },
  tooManyRecipients: {
    ...VALIDATION,
    reason: 'tooMany',
    message: () => 'Too many recipients',
    textKey: () => 'problems.tooManyRecipients',
    metadata: (p) => ({ field: 'recipients', reason: 'tooMany', maxRecipients: p.maxRecipients, count: p.count }),
    fromMetadata: (m) => ({ code: 'tooManyRecipients', field: 'recipients', maxRecipients: num(m.maxRecipients), count: num(m.count) }),
  },
  recipientNotAllowed: {
    errorClass: 'RecipientNotAllowedException',
    status: 400,
    message: () => 'Some recipients are not allowed',
    textKey: () => 'errors.recipientNotAllowed',
    metadata: (p) => ({ recipients: p.recipients }),
  },
  subjectRequired: {
    ...VALIDATION,
    reason: 'required',
    message: () => 'Field is required',
    textKey: () => 'problems.subjectRequired',
    metadata: () => ({ field: 'subject', reason: 'required' }),
    fromMetadata: (m) => (m.field === 'subject' ? { code: 'subjectRequired', field: 'subject' } : undefined),
  },
  subjectTooLong: {
    errorClass: 'MaxSubjectLengthException',
    status: 400,
    message: (p) => `The subject is longer than ${p.maxLength} characters`,
    textKey: () => 'problems.subjectTooLong',
    metadata: (p) => ({ maxLength: p.maxLength, length: p.length }),
  },
  bodyTooLong: {
    errorClass: 'MaxBodyLengthException',
    status: 400,
    message: (p) => `The message is longer than ${p.maxLength} characters`,
    textKey: () => 'problems.bodyTooLong',
    metadata: (p) => ({ maxLength: p.maxLength, length: p.length }),
  },
  messageNotEncrypted: {
    ...VALIDATION,
    reason: 'encryptedMessage',
    message: () => 'A level-4 subject and message travel only end-to-end encrypted',
    textKey: () => 'problems.messageNotEncrypted',
    metadata: (p) => ({ field: p.field, reason: 'encryptedMessage' }),
  },
  filesOrMessageRequired: {
    errorClass: 'DeliveryWithoutFilesNotAllowedException',
    status: 400,
    message: () => 'A delivery needs at least one file or a message',
    textKey: () => 'problems.filesOrMessageRequired',
    metadata: () => ({ fileCount: 0 }),
  },
  tooManyFiles: {
    ...VALIDATION,
    reason: 'tooManyFiles',
    message: () => 'Too many files',
    textKey: () => 'problems.tooManyFiles',
    metadata: (p) => ({ field: 'files', reason: 'tooManyFiles', maxFiles: p.maxFiles }),
  },
  zeroByteFile: {
    ...VALIDATION,
    reason: 'zeroByteFile',
    message: () => 'Empty files (0 bytes) cannot be sent',
    textKey: () => 'problems.zeroByteFile',
    metadata: (p) => ({ field: 'size', reason: 'zeroByteFile', name: p.name }),
    fromMetadata: (m) => ({ code: 'zeroByteFile', field: 'files', name: str(m.name) }),
  },
  duplicateFileName: {
    ...VALIDATION,
    reason: 'duplicateFileName',
    message: () => 'A file with this name is already attached',
    textKey: () => 'problems.duplicateFileName',
    metadata: (p) => ({ field: 'name', reason: 'duplicateFileName', name: p.name }),
    fromMetadata: (m) => ({ code: 'duplicateFileName', field: 'files', name: str(m.name) }),
  },
  invalidFileName: {
    ...VALIDATION,
    reason: 'invalidFileName',
    message: () => 'Invalid file name',
    // The reason at once (bidi control, invisible character, Windows device name, …); the general text without one.
    textKey: (p) => (p.nameProblem ? `fileNameProblems.${p.nameProblem}` : 'problems.invalidFileName'),
    metadata: (p) => ({ field: 'name', reason: 'invalidFileName', nameProblem: p.nameProblem, name: p.name, maxLength: p.maxLength }),
    fromMetadata: (m) => ({
      code: 'invalidFileName',
      field: 'files',
      name: str(m.name),
      maxLength: num(m.maxLength),
      ...(isFileNameProblem(m.nameProblem) ? { nameProblem: m.nameProblem } : {}),
    }),
  },
  invalidMimeType: {
    ...VALIDATION,
    reason: 'invalidMimeType',
    message: () => 'Invalid MIME type: expected type/subtype',
    textKey: () => 'problems.invalidMimeType',
    metadata: () => ({ field: 'mimeType', reason: 'invalidMimeType' }),
  },
  blockedFileType: {
    errorClass: 'FileNotAllowedException',
    status: 400,
    message: () => 'This file type is blocked by company policy',
    textKey: (p) => (p.by === 'extension' ? 'problems.blockedExtension' : 'problems.blockedMimeType'),
    metadata: (p) => ({ name: p.name, extension: p.extension, mimeType: p.mimeType }),
  },
  validityOutOfRange: {
    ...VALIDATION,
    reason: 'outOfRange',
    message: (p) => `Validity must be between ${p.min} and ${p.max} days`,
    textKey: () => 'problems.validityOutOfRange',
    metadata: (p) => ({ field: 'validityDays', reason: 'outOfRange', min: p.min, max: p.max }),
    fromMetadata: (m) => ({ code: 'validityOutOfRange', field: 'validityDays', min: num(m.min), max: num(m.max) }),
  },
  validityNotChoosable: {
    ...VALIDATION,
    reason: 'customExpirationDisabled',
    message: () => 'The validity cannot be chosen on this server',
    textKey: () => 'problems.validityNotChoosable',
    metadata: (p) => ({ field: 'validityDays', reason: 'customExpirationDisabled', validityDays: p.validityDays }),
    fromMetadata: (m) => ({ code: 'validityNotChoosable', field: 'validityDays', validityDays: num(m.validityDays) }),
  },
  validityNotExpiring: {
    ...VALIDATION,
    reason: 'cleanupDisabled',
    message: () => 'Deliveries do not expire on this server',
    textKey: () => 'problems.validityNotExpiring',
    metadata: () => ({ field: 'validityDays', reason: 'cleanupDisabled' }),
    fromMetadata: () => ({ code: 'validityNotExpiring', field: 'validityDays' }),
  },
  noSecurityLevelAllowed: {
    ...VALIDATION,
    reason: 'noneAllowed',
    message: () => 'No security level is allowed',
    textKey: () => 'problems.noSecurityLevelAllowed',
    metadata: () => ({ field: 'securityLevel', reason: 'noneAllowed', allowed: [] }),
    fromMetadata: () => ({ code: 'noSecurityLevelAllowed', field: 'securityLevel' }),
  },
  securityLevelNotAllowed: {
    ...VALIDATION,
    reason: 'notAllowed',
    message: () => 'This security level is not allowed',
    textKey: () => 'problems.securityLevelNotAllowed',
    metadata: (p) => ({ field: 'securityLevel', reason: 'notAllowed', allowed: p.allowed }),
    fromMetadata: (m) => ({ code: 'securityLevelNotAllowed', field: 'securityLevel', allowed: Array.isArray(m.allowed) ? m.allowed.filter(isSecurityLevel) : [] }),
  },
};

type ProblemMap = { [C in SendProblemCode]: ProblemOf<C> };

/** A §8 error as the server sends it (server/core/http-error.ts builds its HttpError from this). */
export interface SendRuleErrorAnswer {
  status: number;
  errorClass: ErrorClass;
  message: string;
  metadata: Record<string, unknown>;
}

// The code and the problem as two arguments let TypeScript pair the row with its problem type.
function answer<C extends SendProblemCode>(code: C, problem: ProblemMap[C]): SendRuleErrorAnswer {
  const row: SendRuleError<C> = SEND_RULE_ERRORS[code];
  return { status: row.status, errorClass: row.errorClass, message: row.message(problem), metadata: row.metadata(problem) };
}

function textKeyOf<C extends SendProblemCode>(code: C, problem: ProblemMap[C]): string {
  const row: SendRuleError<C> = SEND_RULE_ERRORS[code];
  return row.textKey(problem);
}

/** A broken rule as the §8 error the server answers with. */
export function sendRuleError(problem: SendProblem): SendRuleErrorAnswer {
  return answer(problem.code, problem);
}

/** Key (namespace `send`) of the web client's message for a problem. */
export const sendProblemTextKey = (problem: SendProblem): string => textKeyOf(problem.code, problem);

/** The client-side problem a server ValidationException stands for, when its reason is one we know. */
export function problemFromValidation(metadata: Record<string, unknown>): SendProblem | undefined {
  const reason = str(metadata.reason);
  for (const row of Object.values(SEND_RULE_ERRORS) as SendRuleError<SendProblemCode>[]) {
    if (row.errorClass !== 'ValidationException' || row.reason !== reason || !row.fromMetadata) continue;
    const problem = row.fromMetadata(metadata);
    if (problem) return problem;
  }
  return undefined;
}
