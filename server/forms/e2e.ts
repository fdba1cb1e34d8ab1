import { randomBytes } from 'node:crypto';
import type { Language } from '@shared/contract/constants';
import { FORM_E2E_ERRORS, type FormE2eRecipient } from '@shared/contract/form-e2e';
import type { FormInputParsed } from '@shared/contract/forms';
import { isE2eLevel } from '@shared/contract/security-levels';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { HttpError } from '../core/http-error';
import type { Database } from '../db/schema';
import { createSubmitterAccount } from '../users/submitter-accounts';
import type { UserRow } from '../users/users-repository';

/**
 * Forms at levels 3/4 (shared/contract/form-e2e.ts). The server only decides who may receive and
 * hands out public keys; files and values are encrypted in the submitter's browser.
 */

interface RecipientState {
  email: string;
  userId: number | null;
  userUuid: string | null;
  e2e: boolean;
}

/** Each address with its account and whether that account can receive E2E (enabled, SecuPass active). */
async function recipientStates(db: Kysely<Database>, emails: readonly string[]): Promise<RecipientState[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('secupass as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.uuid', 'u.email', 'u.disabled', 's.state'])
    .where(sql<string>`lower(u.email)`, 'in', [...emails])
    .execute();
  return emails.map((email) => {
    const row = rows.find((r) => r.email.toLowerCase() === email);
    return { email, userId: row?.id ?? null, userUuid: row?.uuid ?? null, e2e: row !== undefined && row.disabled !== 1 && row.state === 'active' };
  });
}

const allRecipients = (mandatory: readonly string[], optional: readonly string[]) => [...new Set([...mandatory, ...optional].map((r) => r.trim().toLowerCase()))];

/** SPEC §5: a level 3/4 form is saved only when every recipient has E2E activated (409, naming the others). */
export async function assertRecipientsCanDecrypt(db: Kysely<Database>, input: FormInputParsed): Promise<void> {
  if (!isE2eLevel(input.securityLevel)) return;
  const without = (await recipientStates(db, allRecipients(input.mandatoryRecipients, input.optionalRecipients))).filter((r) => !r.e2e).map((r) => r.email);
  if (without.length > 0) {
    throw new HttpError(409, FORM_E2E_ERRORS.recipientWithoutPassphrase, 'Levels 3 and 4 need every recipient to have a passphrase and end-to-end encryption activated', {
      field: 'securityLevel',
      recipients: without,
    });
  }
}

/**
 * The public page of a level 3/4 form: every recipient's live keys, or the page state "passphrase
 * not set" when one lost E2E after the save (a reset; the form's throwaway sender could never
 * release to them later). Below level 3: none.
 */
export async function e2eRecipientsOf(app: FastifyInstance, level: FormInputParsed['securityLevel'], mandatory: readonly string[], optional: readonly string[]): Promise<FormE2eRecipient[]> {
  if (!isE2eLevel(level)) return [];
  const states = await recipientStates(app.db, allRecipients(mandatory, optional));
  if (states.some((r) => !r.e2e)) throw new HttpError(409, FORM_E2E_ERRORS.passphraseNotSet, 'A recipient of this form has no passphrase set; please tell its operator');
  return Promise.all(states.map(async (r) => ({ userUuid: r.userUuid!, keys: await app.secupass.publicKeysOf(r.userId!) })));
}

/**
 * The sender of one level 3/4 submission: a new submitter account whose throwaway SecuPass the
 * browser stores (the submit box's mechanism, submit-box/submitter-keys.ts). One account per
 * submission, so parallel submissions never replace each other's keys and each signer is new to
 * the recipient (first use, not a "changed key"). Its address is the form sender's with a
 * `+form-…` tag, so download receipts reach the form's sender; its name is the form's.
 */
export async function e2eSubmitter(app: FastifyInstance, formName: string, sender: UserRow, language: Language): Promise<UserRow> {
  const [local, domain] = [sender.email.slice(0, sender.email.lastIndexOf('@')), sender.email.slice(sender.email.lastIndexOf('@') + 1)];
  const email = `${local}+form-${randomBytes(6).toString('hex')}@${domain}`.toLowerCase();
  return createSubmitterAccount(app, { email, language, firstName: formName.slice(0, 100) });
}
