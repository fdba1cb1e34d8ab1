import { ApiError } from '@shared/api/api-error';
import { FORM_E2E_ERRORS } from '@shared/contract/form-e2e';
import { FORM_ERRORS } from '@shared/contract/forms';
import { LICENCE_LIMIT_ERROR } from '@shared/contract/licence';
import type { FormProblem } from '@shared/rules/form-rules';

/** i18n keys of the forms' SPEC §8 answers (status pages and messages). */
const KEYS: Record<string, string> = {
  [FORM_ERRORS.notFound]: 'forms:errors.notFound',
  [FORM_ERRORS.inactive]: 'forms:errors.inactive',
  [FORM_ERRORS.invalidRecipients]: 'forms:errors.invalidRecipients',
  [FORM_ERRORS.duplicateName]: 'forms:errors.duplicateName',
  [FORM_ERRORS.duplicateUrl]: 'forms:errors.duplicateUrl',
  [FORM_ERRORS.wrongCaptcha]: 'forms:errors.wrongCaptcha',
  [LICENCE_LIMIT_ERROR]: 'forms:errors.licence',
  [FORM_E2E_ERRORS.recipientWithoutPassphrase]: 'forms:errors.recipientWithoutPassphrase',
  [FORM_E2E_ERRORS.passphraseNotSet]: 'forms:errors.passphraseNotSet',
  AuthenticationRequiredException: 'forms:errors.authRequired',
  TransferQuotaExceededException: 'forms:errors.transferQuota',
  RateLimitExceededException: 'formsShare:errors.rateLimited',
};

/** The message key (and its figures) of a failed forms call; network trouble is "unreachable". */
export function formErrorMessage(error: unknown, fallback = 'forms:errors.general'): { key: string; values: Record<string, unknown> } {
  if (!(error instanceof ApiError)) return { key: 'forms:errors.unreachable', values: {} };
  const metadata = error.error?.metadata ?? {};
  // Level 3/4 save: the recipients without E2E, as one list.
  const values = Array.isArray(metadata.recipients) ? { ...metadata, recipients: metadata.recipients.join(', ') } : metadata;
  // A wait is said in whole minutes ("in 10 minutes", never "in 598 seconds"); `count` picks the plural.
  if (error.errorClass === 'RateLimitExceededException') return { key: KEYS.RateLimitExceededException!, values: { count: Math.max(1, Math.ceil(Number(metadata.retryAfterSeconds ?? 60) / 60)) } };
  return { key: KEYS[error.errorClass ?? ''] ?? fallback, values };
}

/** The §5 problems the server listed (`metadata.problems`), if any. */
export function serverProblems(error: unknown): FormProblem[] {
  if (!(error instanceof ApiError)) return [];
  const problems = error.error?.metadata.problems;
  return Array.isArray(problems) ? (problems as FormProblem[]) : [];
}

/**
 * "The number is outside the allowed range" names the range (issue 33 §3): the visitor sees which
 * numbers the field takes, written the way their language writes numbers. Null without a bound.
 */
export function numberRangeMessage(field: { min: number | null; max: number | null } | undefined, language: string): { key: string; values: Record<string, string> } | null {
  if (!field || (field.min === null && field.max === null)) return null;
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 20 });
  if (field.min !== null && field.max !== null) return { key: 'forms:public.numberRange', values: { min: format.format(field.min), max: format.format(field.max) } };
  if (field.min !== null) return { key: 'forms:public.numberAtLeast', values: { min: format.format(field.min) } };
  return { key: 'forms:public.numberAtMost', values: { max: format.format(field.max!) } };
}
