import type { SendError, SendProblem } from '@shared/deliveries';

/**
 * What the pane says when something stops a send: the add-in errors of SPEC §8 (no recipient,
 * no subject, unknown, forbidden, no security level permission) and the delivery errors.
 * Each is a text key of the `addin` namespace with its interpolation values.
 */
export interface AddinMessage {
  key: string;
  values?: Record<string, string | number>;
}

export const ADDIN_ERROR_KEYS = {
  noRecipient: 'addin:errors.noRecipient',
  noSubject: 'addin:errors.noSubject',
  unknown: 'addin:errors.unknown',
  forbidden: 'addin:errors.forbidden',
  noSecurityLevelPermission: 'addin:errors.noSecurityLevelPermission',
} as const;

const mib = (bytes: number) => (bytes / (1024 * 1024)).toFixed(2).replace(/\.?0+$/, '');

/** A form problem found before sending (shared/deliveries rules). */
export function messageOfProblem(problem: SendProblem): AddinMessage {
  switch (problem.code) {
    case 'recipientsRequired':
      return { key: ADDIN_ERROR_KEYS.noRecipient };
    case 'subjectRequired':
      return { key: ADDIN_ERROR_KEYS.noSubject };
    case 'noSecurityLevelAllowed':
    case 'securityLevelNotAllowed':
      return { key: ADDIN_ERROR_KEYS.noSecurityLevelPermission };
    case 'invalidEmail':
      return { key: 'addin:problems.invalidEmail', values: { addresses: problem.invalid.join(', ') } };
    case 'subjectTooLong':
    case 'bodyTooLong':
      return { key: `addin:problems.${problem.code}`, values: { maxLength: problem.maxLength } };
    case 'tooManyRecipients':
      return { key: 'addin:problems.tooManyRecipients', values: { max: problem.maxRecipients } };
    case 'tooManyFiles':
      return { key: 'addin:problems.tooManyFiles', values: { max: problem.maxFiles } };
    case 'zeroByteFile':
    case 'duplicateFileName':
    case 'invalidFileName':
      return { key: `addin:problems.${problem.code}`, values: { name: problem.name } };
    case 'blockedFileType':
      // The same rule the server applies (send config's file policy), said before any upload.
      return { key: 'addin:delivery.fileNotAllowed', values: { name: problem.name } };
    case 'validityOutOfRange':
      return { key: 'addin:problems.validityOutOfRange', values: { min: problem.min, max: problem.max } };
    case 'filesOrMessageRequired':
    case 'messageNotEncrypted':
    case 'validityNotExpiring':
      return { key: `addin:problems.${problem.code}` };
    case 'invalidMimeType':
      return { key: 'addin:problems.invalidMimeType', values: { name: problem.name, mimeType: problem.mimeType } };
    case 'validityNotChoosable':
      return { key: 'addin:problems.validityNotChoosable', values: { days: problem.validityDays } };
    case 'recipientNotAllowed':
      return { key: 'addin:delivery.recipientNotAllowed', values: { recipients: problem.recipients.join(', ') } };
    default:
      // Every rule has its text: a new one without a case above is a type error here.
      return problem satisfies never;
  }
}

/** A refusal of the server (or no answer) while sending. */
export function messageOfSendError(error: SendError): AddinMessage {
  if (error.problem) return messageOfProblem(error.problem);
  switch (error.code) {
    case 'accessDenied':
    case 'senderNotLicensed':
      return { key: ADDIN_ERROR_KEYS.forbidden };
    case 'fileNotAllowed':
      return { key: 'addin:delivery.fileNotAllowed', values: { name: error.metadata.name } };
    case 'globalQuotaReached':
      return { key: 'addin:delivery.globalQuotaReached', values: { available: mib(error.metadata.spaceAvailable), required: mib(error.metadata.spaceRequired) } };
    case 'maxUploadSizeExceeded':
      return { key: 'addin:delivery.maxUploadSizeExceeded', values: { max: mib(error.metadata.maxUploadSize) } };
    case 'recipientNotAllowed':
      return { key: 'addin:delivery.recipientNotAllowed', values: { recipients: error.metadata.recipients.join(', ') } };
    case 'maxBodyLength':
    case 'maxSubjectLength':
      return { key: `addin:delivery.${error.code}`, values: { maxLength: error.metadata.maxLength } };
    case 'deliveryWithoutFiles':
    case 'transferQuotaExceeded':
    case 'submitQuotaReached':
    case 'inviteUserToShare':
    case 'accessDescriptorNotFound':
    case 'network':
    case 'cancelled':
    case 'keyChanged':
    case 'encryption':
      return { key: `addin:delivery.${error.code}` };
    case 'validation':
      return { key: 'addin:delivery.validation', values: { message: error.message } };
    default:
      return { key: ADDIN_ERROR_KEYS.unknown };
  }
}
