import type { DeliverySendConfig } from '@shared/contract/config';
import { MS_PER_DAY } from '@shared/contract/constants';
import {
  DEFAULT_VALIDITY_DAYS,
  MAX_BODY_LENGTH,
  MAX_FILE_NAME_LENGTH,
  fileNameProblem,
  isValidFileName,
  isValidMimeType,
  normaliseFileName,
  type FileNameProblem,
  MAX_FILES_PER_DELIVERY,
  MAX_RECIPIENTS,
  MAX_SUBJECT_LENGTH,
  type SecurityLevel,
} from '@shared/contract/deliveries';
import { blockedFile, type FilePolicy } from '@shared/contract/file-policy';
import { allowedSecurityLevels, minimalSecurityLevel, SECURITY_LEVEL_ORDER } from '@shared/contract/security-levels';
import { z } from 'zod';

/**
 * The delivery rules of SPEC §5 — the one implementation: the clients check the form with them
 * before a call is made, the server (server/deliveries/rules.ts) checks every request with them
 * and answers a broken rule with the §8 error its row in send-rule-errors.ts names. Pure, no I/O:
 * the server may import this file (eslint.config.mjs, "shared-pure").
 */

/** One problem of a send form; the UI maps `code` to a text key and fills the figures in. */
export type SendProblem =
  | { code: 'recipientsRequired'; field: 'recipients' }
  | { code: 'invalidEmail'; field: 'recipients' | 'additionalRecipients'; invalid: string[] }
  | { code: 'tooManyRecipients'; field: 'recipients'; maxRecipients: number; count: number }
  /** The administrator's banned addresses or `@domain`s (only the server knows the list). */
  | { code: 'recipientNotAllowed'; field: 'recipients'; recipients: string[] }
  | { code: 'subjectRequired'; field: 'subject' }
  | { code: 'subjectTooLong'; field: 'subject'; maxLength: number; length: number }
  | { code: 'bodyTooLong'; field: 'body'; maxLength: number; length: number }
  /** Level 4 on the wire: subject and body travel only in the encrypted manifest, the plain fields stay empty. */
  | { code: 'messageNotEncrypted'; field: 'subject' | 'body' }
  | { code: 'filesOrMessageRequired'; field: 'files' }
  | { code: 'tooManyFiles'; field: 'files'; maxFiles: number; count: number }
  | { code: 'zeroByteFile'; field: 'files'; name: string }
  | { code: 'duplicateFileName'; field: 'files'; name: string }
  | { code: 'invalidFileName'; field: 'files'; name: string; maxLength: number; nameProblem?: FileNameProblem }
  /** A declared type that is not `type/subtype`. */
  | { code: 'invalidMimeType'; field: 'files'; name: string; mimeType: string }
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

/** A rule's answer: the value it resolved, or the first problem. */
export type RuleResult<T> = { ok: true; value: T } | { ok: false; problem: SendProblem };
const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
const broken = <T>(problem: SendProblem): RuleResult<T> => ({ ok: false, problem });

const emailSchema = z.string().email().max(254);

/** Trimmed, lower-cased, without blanks and duplicates (as the server stores them). */
export function normaliseAddresses(list: readonly string[]): string[] {
  return [...new Set(list.map((a) => a.trim().toLowerCase()).filter((a) => a !== ''))];
}

export function isValidEmail(address: string): boolean {
  return emailSchema.safeParse(address.trim().toLowerCase()).success;
}

/** The level table lives in the contract (shared/contract/security-levels.ts); re-exported for the send screens. */
export { allowedSecurityLevels, minimalSecurityLevel, SECURITY_LEVEL_ORDER };

/** Recipients (SPEC §5): valid addresses in both lists, at least one main recipient, at most MAX_RECIPIENTS in all. */
export function recipientProblems(recipients: readonly string[], additionalRecipients: readonly string[] = []): { recipients: string[]; additional: string[]; problems: SendProblem[] } {
  const main = normaliseAddresses(recipients);
  // An address in both lists counts once, as a main recipient.
  const additional = normaliseAddresses(additionalRecipients).filter((a) => !main.includes(a));
  const problems: SendProblem[] = [];
  const invalidMain = main.filter((a) => !isValidEmail(a));
  if (invalidMain.length > 0) problems.push({ code: 'invalidEmail', field: 'recipients', invalid: invalidMain });
  const invalidAdditional = normaliseAddresses(additionalRecipients).filter((a) => !isValidEmail(a));
  if (invalidAdditional.length > 0) problems.push({ code: 'invalidEmail', field: 'additionalRecipients', invalid: invalidAdditional });
  if (main.length === 0) problems.push({ code: 'recipientsRequired', field: 'recipients' });
  const count = main.length + additional.length;
  if (count > MAX_RECIPIENTS) problems.push({ code: 'tooManyRecipients', field: 'recipients', maxRecipients: MAX_RECIPIENTS, count });
  return { recipients: main, additional, problems };
}

/** Banned addresses or `@domain` entries (the administrator's list) among `addresses`. */
export function bannedRecipientsProblem(addresses: readonly string[], banned: readonly string[]): SendProblem | undefined {
  const refused = addresses.filter((a) => banned.some((b) => (b.startsWith('@') ? a.endsWith(b) : a === b)));
  return refused.length > 0 ? { code: 'recipientNotAllowed', field: 'recipients', recipients: refused } : undefined;
}

/**
 * Subject and body. `encryptedMessage` (level 4 on the wire): they travel only inside the encrypted
 * manifest, so the plain fields must be empty and nothing else is checked here. A form holding the
 * level-4 plaintext passes false: the same limits apply to what goes into the manifest.
 */
export function messageProblems(message: { subject: string; body?: string }, encryptedMessage = false): SendProblem[] {
  const body = message.body ?? '';
  if (encryptedMessage) {
    if (message.subject !== '') return [{ code: 'messageNotEncrypted', field: 'subject' }];
    if (body !== '') return [{ code: 'messageNotEncrypted', field: 'body' }];
    return [];
  }
  const problems: SendProblem[] = [];
  if (message.subject.trim() === '') problems.push({ code: 'subjectRequired', field: 'subject' });
  else if (message.subject.length > MAX_SUBJECT_LENGTH) problems.push({ code: 'subjectTooLong', field: 'subject', maxLength: MAX_SUBJECT_LENGTH, length: message.subject.length });
  if (body.length > MAX_BODY_LENGTH) problems.push({ code: 'bodyTooLong', field: 'body', maxLength: MAX_BODY_LENGTH, length: body.length });
  return problems;
}

/** A delivery needs files or a message; at level 4 the message is in the manifest (`encryptedMessage`), so it counts as there. */
export function contentProblem(fileCount: number, body: string, encryptedMessage = false): SendProblem | undefined {
  return fileCount === 0 && body.trim() === '' && !encryptedMessage ? { code: 'filesOrMessageRequired', field: 'files' } : undefined;
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

/**
 * The validity in days, or null for "permanently available" (only when cleanup is off).
 * Omitted: the 90-day default held within the bounds; without custom expiration only the default.
 */
export function validityRule(requested: number | null | undefined, config: DeliverySendConfig): RuleResult<number | null> {
  const choice = validityChoice(config);
  if (choice.kind === 'permanent') return requested === undefined || requested === null ? ok(null) : broken({ code: 'validityNotExpiring', field: 'validityDays' });
  if (choice.kind === 'fixed') {
    return requested === undefined || requested === choice.days ? ok(choice.days) : broken({ code: 'validityNotChoosable', field: 'validityDays', validityDays: choice.days });
  }
  if (requested === undefined) return ok(choice.defaultDays);
  if (requested === null || requested < choice.min || requested > choice.max) return broken({ code: 'validityOutOfRange', field: 'validityDays', min: choice.min, max: choice.max });
  return ok(requested);
}

/** The requested level if the config allows it; omitted → the minimal allowed one (SPEC §4). */
export function securityLevelRule(requested: SecurityLevel | undefined, config: DeliverySendConfig): RuleResult<SecurityLevel> {
  const allowed = allowedSecurityLevels(config);
  const level = requested ?? allowed[0];
  if (level === undefined) return broken({ code: 'noSecurityLevelAllowed', field: 'securityLevel' });
  if (!allowed.includes(level)) return broken({ code: 'securityLevelNotAllowed', field: 'securityLevel', allowed });
  return ok(level);
}

/** The file-name rule lives in the contract: server and clients share it. */
export { fileNameProblem, isValidFileName, type FileNameProblem };

/**
 * The declared type the upload sends for a file (shared/transfer: the browser's type, else
 * octet-stream), so the form checks what the server will check.
 */
export const declaredMimeType = (file: SendFormFile): string => file.mimeType || 'application/octet-stream';

/**
 * Name, size and declared type of one file (SPEC §5), in this order: the name rule, a `type/subtype`
 * type ('' = unknown is fine), not 0 bytes, not a forbidden type. `name` is the NFC form the server stores.
 */
export function fileProblems(file: { name: string; size: number; mimeType: string }, policy?: FilePolicy): { name: string; problems: SendProblem[] } {
  const name = normaliseFileName(file.name);
  const problems: SendProblem[] = [];
  const nameProblem = fileNameProblem(name);
  if (nameProblem) problems.push({ code: 'invalidFileName', field: 'files', name: file.name, maxLength: MAX_FILE_NAME_LENGTH, nameProblem });
  if (file.mimeType !== '' && !isValidMimeType(file.mimeType)) problems.push({ code: 'invalidMimeType', field: 'files', name, mimeType: file.mimeType });
  if (file.size === 0 && !nameProblem) problems.push({ code: 'zeroByteFile', field: 'files', name });
  const blocked = policy ? blockedFile({ name, mimeType: file.mimeType }, policy) : null;
  if (blocked) problems.push({ code: 'blockedFileType', field: 'files', name, ...blocked });
  return { name, problems };
}

/** At most MAX_FILES_PER_DELIVERY attachments. */
export function fileCountProblem(count: number): SendProblem | undefined {
  return count > MAX_FILES_PER_DELIVERY ? { code: 'tooManyFiles', field: 'files', maxFiles: MAX_FILES_PER_DELIVERY, count } : undefined;
}

/** File names are unique per delivery, compared in NFC without case. */
export function duplicateFileNameProblem(name: string, attached: readonly string[]): SendProblem | undefined {
  const key = normaliseFileName(name).toLowerCase();
  return attached.some((other) => normaliseFileName(other).toLowerCase() === key) ? { code: 'duplicateFileName', field: 'files', name } : undefined;
}

/**
 * Problems of the attachments alone (also usable while files are being added). `policy`: the
 * send config's forbidden types; each forbidden file is one problem naming it.
 */
export function checkFiles(files: readonly SendFormFile[], policy?: FilePolicy): SendProblem[] {
  const problems: SendProblem[] = [];
  const tooMany = fileCountProblem(files.length);
  if (tooMany) problems.push(tooMany);
  const seen: string[] = [];
  for (const file of files) {
    // The form names each file as the user picked it.
    problems.push(...fileProblems({ ...file, mimeType: declaredMimeType(file) }, policy).problems.map((p) => ('name' in p ? { ...p, name: file.name } : p)));
    const duplicate = duplicateFileNameProblem(file.name, seen);
    if (duplicate) problems.push(duplicate);
    seen.push(file.name);
  }
  return problems;
}

/**
 * Every §5 rule the client can check, in form order; an empty list means "may be sent"
 * (the server may still refuse: banned recipients, a type its content sniff finds, quotas — see send-errors).
 */
export function checkSendForm(form: SendForm, config: DeliverySendConfig): SendProblem[] {
  const problems: SendProblem[] = [];
  problems.push(...recipientProblems(form.recipients, form.additionalRecipients).problems);
  problems.push(...messageProblems(form));
  const content = contentProblem(form.files.length, form.body ?? '');
  if (content) problems.push(content);
  problems.push(...checkFiles(form.files, config.filePolicy));
  const validity = validityRule(form.validityDays, config);
  if (!validity.ok) problems.push(validity.problem);
  const level = securityLevelRule(form.securityLevel, config);
  if (!level.ok) problems.push(level.problem);
  return problems;
}
