import type { DeliverySendConfig } from '@shared/contract/config';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { isBlockedType, parseFileTypeList, type FilePolicy } from '@shared/contract/file-policy';
import { isE2eLevel } from '@shared/contract/security-levels';
import { sendRuleError } from '@shared/rules/send-rule-errors';
import {
  bannedRecipientsProblem,
  contentProblem,
  duplicateFileNameProblem,
  fileCountProblem,
  fileProblems,
  messageProblems,
  recipientProblems,
  securityLevelRule,
  validityRule,
  type SendProblem,
} from '@shared/rules/send-rules';
import { HttpError } from '../core/http-error';

/**
 * The delivery rules of SPEC §5 as the server enforces them (never only in the form). A thin
 * adapter: the rules are the clients' (shared/rules/send-rules.ts, one implementation), and
 * a broken rule becomes its SPEC §8 error through the one table (shared/rules/send-rule-errors.ts).
 * The function names are the ones the deliveries stages (drafts.ts, parts.ts, sending.ts) call.
 */

/** The §8 error of a broken rule (class, status, message and figures from the rule table). */
export function ruleError(problem: SendProblem): HttpError {
  const answer = sendRuleError(problem);
  return new HttpError(answer.status, answer.errorClass, answer.message, answer.metadata);
}

const throwFirst = (problems: readonly SendProblem[]): void => {
  const [first] = problems;
  if (first) throw ruleError(first);
};

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
  const { recipients, additional, problems } = recipientProblems(fields.recipients, fields.additionalRecipients);
  throwFirst(problems);
  throwFirst(messageProblems(fields, encryptedMessage));
  return { recipients, additional };
}

/** Throws RecipientNotAllowedException for banned addresses or domains (`@domain` entries). */
export function checkNotBanned(addresses: readonly string[], banned: readonly string[]): void {
  const problem = bannedRecipientsProblem(addresses, banned);
  if (problem) throw ruleError(problem);
}

/** Throws DeliveryWithoutFilesNotAllowedException for a delivery with neither files nor a message (level 4: the message is in the manifest). */
export function checkContent(fileCount: number, body: string, encryptedMessage: boolean): void {
  const problem = contentProblem(fileCount, body, encryptedMessage);
  if (problem) throw ruleError(problem);
}

/** The validity in days, or null for "permanently available" (only when cleanup is off). */
export function resolveValidityDays(requested: number | null | undefined, config: DeliverySendConfig): number | null {
  const result = validityRule(requested, config);
  if (!result.ok) throw ruleError(result.problem);
  return result.value;
}

/** The requested level if allowed; omitted → the minimal allowed one (SPEC §4). */
export function resolveSecurityLevel(requested: SecurityLevel | undefined, config: DeliverySendConfig): SecurityLevel {
  const result = securityLevelRule(requested, config);
  if (!result.ok) throw ruleError(result.problem);
  return result.value;
}

/** The level table lives in the contract (shared/contract/security-levels.ts). */
export { isE2eLevel };

/** The forbidden-file rule is shared with the send pages (shared/contract/file-policy.ts). */
export type { FilePolicy };
export { isBlockedType, parseFileTypeList as parseList };

/**
 * Name, size and type of one file (SPEC §5): invalid characters, 0-byte, blocked types. Returns the
 * NFC name. For an E2E file `size` is the plaintext size (from the ciphertext size).
 */
export function checkFile(file: { name: string; size: number; mimeType: string }, policy: FilePolicy): string {
  const { name, problems } = fileProblems(file, policy);
  throwFirst(problems);
  return name;
}

/** One more file next to the `attached` ones: at most MAX_FILES_PER_DELIVERY, names unique. */
export function checkAnotherFile(name: string, attached: readonly string[]): void {
  const tooMany = fileCountProblem(attached.length + 1);
  if (tooMany) throw ruleError(tooMany);
  const duplicate = duplicateFileNameProblem(name, attached);
  if (duplicate) throw ruleError(duplicate);
}
