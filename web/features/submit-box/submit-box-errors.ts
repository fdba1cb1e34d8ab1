import { ApiError } from '@shared/api/api-error';
import { SUBMIT_BOX_ERRORS } from '@shared/contract/submit-box';

/** i18n keys of the submit box's SPEC §8 answers (status pages and messages). */
const KEYS: Record<string, string> = {
  [SUBMIT_BOX_ERRORS.notFound]: 'submitBox:errors.notFound',
  [SUBMIT_BOX_ERRORS.notEnabled]: 'submitBox:errors.notEnabled',
  [SUBMIT_BOX_ERRORS.globallyDisabled]: 'submitBox:errors.globallyDisabled',
  [SUBMIT_BOX_ERRORS.ticketUsed]: 'submitBox:errors.ticketUsed',
  [SUBMIT_BOX_ERRORS.ticketRevoked]: 'submitBox:errors.ticketRevoked',
  [SUBMIT_BOX_ERRORS.noAllowedLevel]: 'submitBox:errors.noAllowedLevel',
  [SUBMIT_BOX_ERRORS.recipientWithoutPassphrase]: 'submitBox:errors.recipientWithoutPassphrase',
  [SUBMIT_BOX_ERRORS.encryptedUnavailable]: 'submitBox:errors.encryptedUnavailable',
  [SUBMIT_BOX_ERRORS.ticketCreation]: 'submitBox:errors.ticketCreation',
  RateLimitExceededException: 'submitBox:errors.rateLimited',
  ValidationException: 'submitBox:errors.invalid',
};

/** The message key of a failed submit-box call; network trouble is "unreachable". */
export function submitBoxErrorKey(error: unknown, fallback = 'submitBox:errors.general'): string {
  if (!(error instanceof ApiError)) return 'submitBox:errors.unreachable';
  return KEYS[error.errorClass ?? ''] ?? fallback;
}
