import { sendProblemTextKey, type SendError, type SendProblem } from '@shared/deliveries';
import type { TransferMessage } from '@web/lib/transfer-store';
import type { TFunction } from 'i18next';

/**
 * Text keys (namespace `send`) of the send form's problems (SPEC §5) and of the server's refusals
 * (SPEC §8), with the figures to fill in.
 */

/** SPEC §5 problem → message at its field: the key from the rule table (shared/rules/send-rule-errors.ts), the figures from the problem. */
export function problemMessage(problem: SendProblem): TransferMessage {
  const key = `send:${sendProblemTextKey(problem)}`;
  switch (problem.code) {
    case 'invalidEmail':
      return { key, values: { addresses: problem.invalid.join(', '), count: problem.invalid.length } };
    case 'tooManyRecipients':
      return { key, values: { max: problem.maxRecipients } };
    case 'recipientNotAllowed':
      return { key, values: { recipients: problem.recipients.join(', ') } };
    case 'subjectTooLong':
    case 'bodyTooLong':
      return { key, values: { maxLength: problem.maxLength } };
    case 'tooManyFiles':
      return { key, values: { max: problem.maxFiles } };
    case 'zeroByteFile':
    case 'duplicateFileName':
      return { key, values: { name: problem.name } };
    case 'invalidFileName':
      return { key, values: { name: problem.name, maxLength: problem.maxLength } };
    case 'invalidMimeType':
      return { key, values: { name: problem.name, mimeType: problem.mimeType } };
    case 'blockedFileType':
      return { key, values: { name: problem.name, extension: problem.extension, mimeType: problem.mimeType } };
    case 'validityOutOfRange':
      return { key, values: { min: problem.min, max: problem.max } };
    case 'validityNotChoosable':
      return { key, values: { days: problem.validityDays } };
    default:
      return { key };
  }
}

/** SPEC §8 refusal → message shown after the send failed; `size` formats byte counts (quota figures). */
// Metadata is the server's object as it came (toSendError does not fill gaps): every figure may be missing.
export function sendErrorMessage(error: SendError, size: (bytes: number) => string = String): TransferMessage {
  const file = error.fileName ?? '';
  switch (error.code) {
    case 'fileNotAllowed':
      return { key: 'send:errors.fileNotAllowed', values: { name: error.metadata.name || file } };
    case 'globalQuotaReached':
      return { key: 'send:errors.globalQuotaReached', values: { spaceAvailable: size(error.metadata.spaceAvailable ?? 0), spaceRequired: size(error.metadata.spaceRequired ?? 0) } };
    case 'maxUploadSizeExceeded':
      return { key: 'send:errors.maxUploadSizeExceeded', values: { maxUploadSize: size(error.metadata.maxUploadSize ?? 0), requestedSize: size(error.metadata.requestedSize ?? 0) } };
    case 'maxBodyLength':
    case 'maxSubjectLength':
      return { key: `send:errors.${error.code}`, values: { maxLength: error.metadata.maxLength } };
    case 'recipientNotAllowed':
      return {
        key: error.metadata.reason === 'replyOnly' ? 'send:errors.replyOnly' : 'send:errors.recipientNotAllowed',
        values: { recipients: (error.metadata.recipients ?? []).join(', ') },
      };
    case 'senderNotLicensed':
    case 'inviteUserToShare':
      return { key: `send:errors.${error.code}`, values: { recipients: (error.metadata.recipients ?? []).join(', ') } };
    case 'validation':
      if (error.problem) return problemMessage(error.problem);
      return { key: 'send:errors.validation' };
    case 'deliveryWithoutFiles':
    case 'submitQuotaReached':
    case 'transferQuotaExceeded':
    case 'accessDescriptorNotFound':
    case 'notFound':
    case 'accessDenied':
    case 'authenticationRequired':
    case 'network':
    case 'cancelled':
    case 'keyChanged':
    case 'encryption':
      return { key: `send:errors.${error.code}`, values: { name: file } };
    default:
      return { key: 'send:errors.unknown' };
  }
}

/**
 * One field's problems as one line, as the send pages show it: forbidden files are named together
 * (each of their rows says why, `blockedFileRows`); undefined when there is none.
 */
export function problemsText(found: readonly SendProblem[], t: TFunction): string | undefined {
  const blocked = found.filter((p) => p.code === 'blockedFileType');
  const messages = found.filter((p) => p.code !== 'blockedFileType').map((p) => {
    const message = problemMessage(p);
    return t(message.key, message.values);
  });
  if (blocked.length > 0) messages.push(t('send:problems.blockedFiles', { count: blocked.length, names: blocked.map((p) => p.name).join(', ') }));
  return messages.length > 0 ? messages.join(' ') : undefined;
}

/** Why a listed file cannot be sent (a forbidden type), by file name: AttachmentsField `rowProblems`. */
export function blockedFileRows(problems: readonly SendProblem[], t: TFunction): Map<string, string> {
  return new Map(
    problems.flatMap((p) => {
      if (p.code !== 'blockedFileType') return [];
      const message = problemMessage(p);
      return [[p.name, t(message.key, message.values)] as const];
    }),
  );
}
