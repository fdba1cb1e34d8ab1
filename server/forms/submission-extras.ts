import type { CustomField, FieldValue } from '@shared/contract/forms';
import { renderSubject } from '@shared/rules/form-admin-rules';
import { isPngDataUrl } from '@shared/rules/form-rules';
import { isValidEmail } from '@shared/rules/send-rules';
import type { FastifyInstance } from 'fastify';
import { accessDenied } from '../core/http-error';
import type { UserRow } from '../users/users-repository';
import { adminOf, maySubmit } from './admin-settings';
import type { FormRow } from './forms';

/**
 * What the administration settings change in a submission (./submissions.ts calls these): the
 * allowed submitters of an only-authenticated form, the subject template, the recipients'
 * notification, and the address of the submitter's confirmation mail.
 */

const today = () => new Date().toISOString().slice(0, 10);

export async function assertMaySubmit(app: FastifyInstance, row: FormRow, submitter: UserRow | null): Promise<void> {
  if (submitter && !(await maySubmit(app, row, submitter))) throw accessDenied('You may not submit this form; please ask its operator');
}

/** The delivery's subject and whether the send stays quiet (no notification mail to the recipients). */
export async function deliveryOptions(app: FastifyInstance, row: FormRow, values: Record<string, FieldValue>, standardSubject: string): Promise<{ subject: string; quiet: boolean }> {
  const admin = await adminOf(app.db, row);
  const rendered = admin.subjectTemplate.trim() === '' ? '' : renderSubject(admin.subjectTemplate, { formName: row.name, date: today(), values });
  return { subject: rendered === '' ? standardSubject : rendered, quiet: !admin.notifyRecipients };
}

/**
 * The values the confirmation text's `{field:…}` placeholders are filled from at completion, as
 * JSON (levels 3/4 send none: the server never sees them). A drawn signature is no text: left out.
 */
export function confirmationValues(values: Record<string, FieldValue>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(values).filter(([, v]) => !(typeof v === 'string' && isPngDataUrl(v)))));
}

/**
 * Where the confirmation mail will go, when the Layout tab has its text: the signed-in submitter,
 * else the first email field's value; null for none. It is mailed when the submission completes
 * (./submission-completion.ts), not now.
 */
export async function confirmationAddress(app: FastifyInstance, context: { row: FormRow; fields: CustomField[]; values: Record<string, FieldValue>; submitter: UserRow | null }): Promise<string | null> {
  const { row, fields, values, submitter } = context;
  const { confirmationMailText } = await adminOf(app.db, row);
  if (confirmationMailText.trim() === '') return null;
  const typed = fields.filter((f) => f.type === 'email').map((f) => values[f.name]).find((v): v is string => typeof v === 'string' && isValidEmail(v.trim()));
  return submitter?.email ?? typed?.trim() ?? null;
}
