import { MS_PER_DAY, SECURITY_LEVELS } from '@shared/contract/constants';
import type { DeliverySendConfig } from '@shared/contract/config';
import {
  DEFAULT_VALIDITY_DAYS,
  MAX_BODY_LENGTH,
  MAX_FILE_NAME_LENGTH,
  fileNameProblem,
  isValidMimeType,
  normaliseFileName,
  MAX_RECIPIENTS,
  MAX_SUBJECT_LENGTH,
  type SecurityLevel,
} from '@shared/contract/deliveries';
import { blockedFile, isBlockedType, parseFileTypeList, type FilePolicy } from '@shared/contract/file-policy';
import { z } from 'zod';
import { badRequest, HttpError } from '../core/http-error';

/**
 * The delivery rules of SPEC §5 as the server enforces them (never only in the form),
 * each answered with its SPEC §8 class and figures in `metadata`.
 */

const emailSchema = z.string().email().max(254);

/** Lower-cased, trimmed, de-duplicated addresses; throws ValidationException naming the invalid ones. */
export function normaliseAddresses(list: readonly string[], field: string): string[] {
  const cleaned = list.map((a) => a.trim().toLowerCase()).filter((a) => a !== '');
  const invalid = cleaned.filter((a) => !emailSchema.safeParse(a).success);
  if (invalid.length > 0) throw badRequest('Invalid email address', { field, reason: 'invalidEmail', invalid });
  return [...new Set(cleaned)];
}

export interface MessageFields {
  recipients: readonly string[];
  additionalRecipients: readonly string[];
  subject: string;
  body: string;
}

/**
 * Recipients, subject and body. Returns the normalised addresses (additional ones minus main ones).
 * `encryptedMessage` (level 4): subject and body travel only inside the encrypted manifest, so the
 * plain fields must be empty — the server refuses to store a level-4 message in clear.
 */
export function checkMessage(fields: MessageFields, encryptedMessage = false): { recipients: string[]; additional: string[] } {
  const recipients = normaliseAddresses(fields.recipients, 'recipients');
  const additional = normaliseAddresses(fields.additionalRecipients, 'additionalRecipients').filter((a) => !recipients.includes(a));
  if (recipients.length === 0) throw badRequest('At least one recipient is required', { field: 'recipients', reason: 'required' });
  if (recipients.length + additional.length > MAX_RECIPIENTS) {
    throw badRequest('Too many recipients', { field: 'recipients', reason: 'tooMany', maxRecipients: MAX_RECIPIENTS, count: recipients.length + additional.length });
  }
  if (encryptedMessage) {
    if (fields.subject !== '' || fields.body !== '') {
      throw badRequest('A level-4 subject and message travel only end-to-end encrypted', { field: fields.subject !== '' ? 'subject' : 'body', reason: 'encryptedMessage' });
    }
    return { recipients, additional };
  }
  if (fields.subject.trim() === '') throw badRequest('Field is required', { field: 'subject', reason: 'required' });
  if (fields.subject.length > MAX_SUBJECT_LENGTH) {
    throw new HttpError(400, 'MaxSubjectLengthException', `The subject is longer than ${MAX_SUBJECT_LENGTH} characters`, {
      maxLength: MAX_SUBJECT_LENGTH,
      length: fields.subject.length,
    });
  }
  if (fields.body.length > MAX_BODY_LENGTH) {
    throw new HttpError(400, 'MaxBodyLengthException', `The message is longer than ${MAX_BODY_LENGTH} characters`, {
      maxLength: MAX_BODY_LENGTH,
      length: fields.body.length,
    });
  }
  return { recipients, additional };
}

/** Throws RecipientNotAllowedException for banned addresses or domains (`@domain` entries). */
export function checkNotBanned(addresses: readonly string[], banned: readonly string[]): void {
  if (banned.length === 0) return;
  const refused = addresses.filter((a) => banned.some((b) => (b.startsWith('@') ? a.endsWith(b) : a === b)));
  if (refused.length > 0) {
    throw new HttpError(400, 'RecipientNotAllowedException', 'Some recipients are not allowed', { recipients: refused });
  }
}

/** Cleanup bounds in days: milliseconds divided by a day, rounded up (SPEC §9). */
export function validityBounds(config: DeliverySendConfig): { min: number; max: number } {
  const min = Math.max(1, Math.ceil(config.deliveryCleanupExpirationMin / MS_PER_DAY));
  return { min, max: Math.max(min, Math.ceil(config.deliveryCleanupExpirationMax / MS_PER_DAY)) };
}

/**
 * The validity in days, or null for "permanently available" (only when cleanup is off).
 * Omitted: 90 days (the form's placeholder) held within the bounds; without custom
 * expiration only the default is accepted.
 */
export function resolveValidityDays(requested: number | null | undefined, config: DeliverySendConfig): number | null {
  if (!config.deliveryCleanupEnabled) {
    if (requested !== undefined && requested !== null) {
      throw badRequest('Deliveries do not expire on this server', { field: 'validityDays', reason: 'cleanupDisabled' });
    }
    return null;
  }
  const { min, max } = validityBounds(config);
  const fallback = Math.min(max, Math.max(min, DEFAULT_VALIDITY_DAYS));
  if (requested === undefined) return fallback;
  if (!config.deliveryCleanupCustomExpiration && requested !== fallback) {
    throw badRequest('The validity cannot be chosen on this server', { field: 'validityDays', reason: 'customExpirationDisabled', validityDays: fallback });
  }
  if (requested === null || requested < min || requested > max) {
    throw badRequest(`Validity must be between ${min} and ${max} days`, { field: 'validityDays', reason: 'outOfRange', min, max });
  }
  return requested;
}

const LEVEL_ORDER: readonly SecurityLevel[] = [SECURITY_LEVELS.LEVEL_1, SECURITY_LEVELS.LEVEL_2, SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4];

export function allowedLevels(config: DeliverySendConfig): SecurityLevel[] {
  const flags = [config.allowSecurityLevel1, config.allowSecurityLevel2, config.allowSecurityLevel3, config.allowSecurityLevel4];
  return LEVEL_ORDER.filter((_, i) => flags[i]);
}

/** Levels 3 and 4: files end-to-end encrypted (and at 4 the message too). */
export const isE2eLevel = (level: number): boolean => level === SECURITY_LEVELS.LEVEL_3 || level === SECURITY_LEVELS.LEVEL_4;

/** The requested level if allowed; omitted → the minimal allowed one (SPEC §4). */
export function resolveSecurityLevel(requested: SecurityLevel | undefined, config: DeliverySendConfig): SecurityLevel {
  const allowed = allowedLevels(config);
  const level = requested ?? allowed[0];
  if (level === undefined) throw badRequest('No security level is allowed', { field: 'securityLevel', reason: 'noneAllowed', allowed });
  if (!allowed.includes(level)) throw badRequest('This security level is not allowed', { field: 'securityLevel', reason: 'notAllowed', allowed });
  return level;
}

/** The forbidden-file rule is shared with the send pages (shared/contract/file-policy.ts). */
export type { FilePolicy };
export { isBlockedType, parseFileTypeList as parseList };

/**
 * Name, size and type of one file (SPEC §5): invalid characters, 0-byte, blocked types. Returns the
 * trimmed name. For an E2E file `size` is the plaintext size (from the ciphertext size).
 */
export function checkFile(file: { name: string; size: number; mimeType: string }, policy: FilePolicy): string {
  const name = normaliseFileName(file.name);
  const nameProblem = fileNameProblem(name);
  if (nameProblem) {
    throw badRequest('Invalid file name', { field: 'name', reason: 'invalidFileName', nameProblem, name: file.name, maxLength: MAX_FILE_NAME_LENGTH });
  }
  // '' is what browsers report for an unknown type: it becomes application/octet-stream.
  if (file.mimeType !== '' && !isValidMimeType(file.mimeType)) {
    throw badRequest('Invalid MIME type: expected type/subtype', { field: 'mimeType', reason: 'invalidMimeType' });
  }
  if (file.size === 0) throw badRequest('Empty files (0 bytes) cannot be sent', { field: 'size', reason: 'zeroByteFile', name });
  const blocked = blockedFile({ name, mimeType: file.mimeType }, policy);
  if (blocked) {
    throw new HttpError(400, 'FileNotAllowedException', 'This file type is blocked by company policy', {
      name,
      extension: blocked.extension,
      mimeType: blocked.mimeType,
    });
  }
  return name;
}
