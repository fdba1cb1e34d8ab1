import type { Language } from '@shared/contract/constants';
import type { CustomField, FieldValue } from '@shared/contract/forms';
import { renderSubject } from '@shared/rules/form-admin-rules';
import { isValidEmail } from '@shared/rules/send-rules';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { accessDenied } from '../core/http-error';
import type { UserRow } from '../users/users-repository';
import { adminOf, maySubmit } from './admin-settings';
import type { FormRow } from './forms';

/**
 * What the administration settings change in a submission (./submissions.ts calls these): the
 * allowed submitters of an only-authenticated form, the subject template, the recipients'
 * notification, and the submitter's confirmation mail.
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
 * The confirmation mail, when the Layout tab has its text: to the signed-in submitter, else to
 * the first email field's value. A mail that cannot go out is logged; the submission stands.
 */
export async function sendConfirmation(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  context: { row: FormRow; fields: CustomField[]; values: Record<string, FieldValue>; submitter: UserRow | null; language: Language },
): Promise<void> {
  const { row, fields, values, submitter, language } = context;
  const { confirmationMailText } = await adminOf(app.db, row);
  if (confirmationMailText.trim() === '') return;
  const typed = fields.filter((f) => f.type === 'email').map((f) => values[f.name]).find((v): v is string => typeof v === 'string' && isValidEmail(v.trim()));
  const to = submitter?.email ?? typed?.trim();
  if (!to) return;
  try {
    await app.mailer.send({ to, template: 'formConfirmation', language, data: { formName: row.name, text: confirmationMailText, date: today() } });
  } catch (error) {
    log.error({ err: error, formUuid: row.uuid }, 'form confirmation mail failed');
  }
}
