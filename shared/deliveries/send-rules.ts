import type { DeliverySendConfig } from '@shared/contract/config';
import { MS_PER_DAY, SECURITY_LEVELS } from '@shared/contract/constants';
import {
  DEFAULT_VALIDITY_DAYS,
  MAX_BODY_LENGTH,
  MAX_FILE_NAME_LENGTH,
  fileNameProblem,
  isValidFileName,
  type FileNameProblem,
  MAX_FILES_PER_DELIVERY,
  MAX_RECIPIENTS,
  MAX_SUBJECT_LENGTH,
  type SecurityLevel,
} from '@shared/contract/deliveries';
import { blockedFile, type FilePolicy } from '@shared/contract/file-policy';
import { z } from 'zod';

/**
 * The delivery rules of SPEC §5 on the client: the same limits (from the contract) and the same
 * decisions as server/deliveries/rules.ts, so the form shows a problem before a call is made.
 * The server checks everything again; these only spare a round trip. Pure, no I/O.
 */

/** One problem of a send form; the UI maps `code` to a text key and fills the figures in. */
export type SendProblem =
  | { code: 'recipientsRequired'; field: 'recipients' }
  | { code: 'invalidEmail'; field: 'recipients' | 'additionalRecipients'; invalid: string[] }
  | { code: 'tooManyRecipients'; field: 'recipients'; maxRecipients: number; count: number }
  | { code: 'subjectRequired'; field: 'subject' }
  | { code: 'subjectTooLong'; field: 'subject'; maxLength: number; length: number }
  | { code: 'bodyTooLong'; field: 'body'; maxLength: number; length: number }
  | { code: 'filesOrMessageRequired'; field: 'files' }
  | { code: 'tooManyFiles'; field: 'files'; maxFiles: number; count: number }
  | { code: 'zeroByteFile'; field: 'files'; name: string }
  | { code: 'duplicateFileName'; field: 'files'; name: string }
  | { code: 'invalidFileName'; field: 'files'; name: string; maxLength: number; nameProblem?: FileNameProblem }
  /** The admin's forbidden types (shared/contract/file-policy.ts, the rule the server applies): by extension or declared type. */
  | { code: 'blockedFileType'; field: 'files'; name: string; by: 'extension' | 'mimeType'; extension: string; mimeType: string }
  | { code: 'validityOutOfRange'; field: 'validityDays'; min: number; max: number }
  | { code: 'validityNotChoosable'; field: 'validityDays'; validityDays: number }
  | { code: 'validityNotExpiring'; field: 'validityDays' }
  | { code: 'noSecurityLevelAllowed'; field: 'securityLevel' }
  | { code: 'securityLevelNotAllowed'; field: 'securityLevel'; allowed: SecurityLevel[] };
export type SendProblemCode = SendProblem['code'];

/** A file as the rules see it: name, size and the declared type (the browser's `File.type`; '' = unknown). */
export interface SendFormFile {
  name: string;
  size: number;
  mimeType?: string;
}

/** What the send form holds (files only by name, size and type; the bytes do not matter here). */
export interface SendForm {
  recipients: readonly string[];
  additionalRecipients?: readonly string[];
  subject: string;
  body?: string;
  files: readonly SendFormFile[];
  /** Omitted = the default held within the bounds; null = no expiry (only when cleanup is off). */
  validityDays?: number | null;
  /** Omitted = the minimal allowed level. */
  securityLevel?: SecurityLevel;
}

const emailSchema = z.string().email().max(254);

/** Trimmed, lower-cased, without blanks and duplicates (as the server stores them). */
export function normaliseAddresses(list: readonly string[]): string[] {
  return [...new Set(list.map((a) => a.trim().toLowerCase()).filter((a) => a !== ''))];
}

export function isValidEmail(address: string): boolean {
  return emailSchema.safeParse(address.trim().toLowerCase()).success;
}

/** Security levels in the SPEC §4 order. */
export const SECURITY_LEVEL_ORDER: readonly SecurityLevel[] = [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2, SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4];

/** Levels the send config allows (`allowSecurityLevel1..4`), in LEVEL_1..4 order. */
export function allowedSecurityLevels(config: DeliverySendConfig): SecurityLevel[] {
  const flags = [config.allowSecurityLevel1, config.allowSecurityLevel2, config.allowSecurityLevel3, config.allowSecurityLevel4];
  return SECURITY_LEVEL_ORDER.filter((_, i) => flags[i]);
}

/** The minimal level: the first allowed one in LEVEL_1..4 order (SPEC §4); undefined when none is allowed. */
export function minimalSecurityLevel(config: DeliverySendConfig): SecurityLevel | undefined {
  return allowedSecurityLevels(config)[0];
}

/** Cleanup bounds in days: milliseconds ÷ 86 400 000, rounded up (SPEC §9); at least 1 day. */
export function validityBounds(config: DeliverySendConfig): { min: number; max: number } {
  const min = Math.max(1, Math.ceil(config.deliveryCleanupExpirationMin / MS_PER_DAY));
  return { min, max: Math.max(min, Math.ceil(config.deliveryCleanupExpirationMax / MS_PER_DAY)) };
}

/** What the validity field offers: none at all (no cleanup), a fixed value, or a range with the 90-day placeholder held inside. */
export function validityChoice(config: DeliverySendConfig): { kind: 'permanent' } | { kind: 'fixed'; days: number } | { kind: 'range'; min: number; max: number; defaultDays: number } {
  if (!config.deliveryCleanupEnabled) return { kind: 'permanent' };
  const { min, max } = validityBounds(config);
  const defaultDays = Math.min(max, Math.max(min, DEFAULT_VALIDITY_DAYS));
  return config.deliveryCleanupCustomExpiration ? { kind: 'range', min, max, defaultDays } : { kind: 'fixed', days: defaultDays };
}

/** The file-name rule lives in the contract: server and clients share it. */
export { fileNameProblem, isValidFileName, type FileNameProblem };

/**
 * The declared type the upload sends for a file (shared/transfer: the browser's type, else
 * octet-stream), so the form checks what the server will check.
 */
export const declaredMimeType = (file: SendFormFile): string => file.mimeType || 'application/octet-stream';

/**
 * Problems of the attachments alone (also usable while files are being added). `policy`: the
 * send config's forbidden types; each forbidden file is one problem naming it.
 */
export function checkFiles(files: readonly SendFormFile[], policy?: FilePolicy): SendProblem[] {
  const problems: SendProblem[] = [];
  if (files.length > MAX_FILES_PER_DELIVERY) problems.push({ code: 'tooManyFiles', field: 'files', maxFiles: MAX_FILES_PER_DELIVERY, count: files.length });
  const seen = new Set<string>();
  for (const file of files) {
    const nameProblem = fileNameProblem(file.name);
    if (nameProblem) problems.push({ code: 'invalidFileName', field: 'files', name: file.name, maxLength: MAX_FILE_NAME_LENGTH, nameProblem });
    else if (file.size === 0) problems.push({ code: 'zeroByteFile', field: 'files', name: file.name });
    const blocked = policy ? blockedFile({ name: file.name, mimeType: declaredMimeType(file) }, policy) : null;
    if (blocked) problems.push({ code: 'blockedFileType', field: 'files', name: file.name, ...blocked });
    const key = file.name.normalize('NFC').toLowerCase();
    if (seen.has(key)) problems.push({ code: 'duplicateFileName', field: 'files', name: file.name });
    seen.add(key);
  }
  return problems;
}

/**
 * Every §5 rule the client can check, in form order; an empty list means "may be sent"
 * (the server may still refuse: banned recipients, a type its content sniff finds, quotas — see send-errors).
 */
export function checkSendForm(form: SendForm, config: DeliverySendConfig): SendProblem[] {
  const problems: SendProblem[] = [];
  const recipients = normaliseAddresses(form.recipients);
  const additional = normaliseAddresses(form.additionalRecipients ?? []);
  if (recipients.length === 0) problems.push({ code: 'recipientsRequired', field: 'recipients' });
  const invalidMain = recipients.filter((a) => !isValidEmail(a));
  if (invalidMain.length > 0) problems.push({ code: 'invalidEmail', field: 'recipients', invalid: invalidMain });
  const invalidAdditional = additional.filter((a) => !isValidEmail(a));
  if (invalidAdditional.length > 0) problems.push({ code: 'invalidEmail', field: 'additionalRecipients', invalid: invalidAdditional });
  const count = new Set([...recipients, ...additional]).size;
  if (count > MAX_RECIPIENTS) problems.push({ code: 'tooManyRecipients', field: 'recipients', maxRecipients: MAX_RECIPIENTS, count });

  if (form.subject.trim() === '') problems.push({ code: 'subjectRequired', field: 'subject' });
  else if (form.subject.length > MAX_SUBJECT_LENGTH) problems.push({ code: 'subjectTooLong', field: 'subject', maxLength: MAX_SUBJECT_LENGTH, length: form.subject.length });
  const body = form.body ?? '';
  if (body.length > MAX_BODY_LENGTH) problems.push({ code: 'bodyTooLong', field: 'body', maxLength: MAX_BODY_LENGTH, length: body.length });
  if (form.files.length === 0 && body.trim() === '') problems.push({ code: 'filesOrMessageRequired', field: 'files' });
  problems.push(...checkFiles(form.files, config.filePolicy));

  const validity = validityChoice(config);
  if (validity.kind === 'permanent') {
    if (form.validityDays !== undefined && form.validityDays !== null) problems.push({ code: 'validityNotExpiring', field: 'validityDays' });
  } else if (form.validityDays !== undefined) {
    const fixed = validity.kind === 'fixed' ? validity.days : undefined;
    if (fixed !== undefined && form.validityDays !== fixed) problems.push({ code: 'validityNotChoosable', field: 'validityDays', validityDays: fixed });
    else if (validity.kind === 'range' && (form.validityDays === null || form.validityDays < validity.min || form.validityDays > validity.max)) {
      problems.push({ code: 'validityOutOfRange', field: 'validityDays', min: validity.min, max: validity.max });
    }
  }

  const allowed = allowedSecurityLevels(config);
  if (allowed.length === 0) problems.push({ code: 'noSecurityLevelAllowed', field: 'securityLevel' });
  else if (form.securityLevel !== undefined && !allowed.includes(form.securityLevel)) {
    problems.push({ code: 'securityLevelNotAllowed', field: 'securityLevel', allowed });
  }
  return problems;
}
