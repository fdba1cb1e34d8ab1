import { reduceLanguage } from '@shared/contract/constants';
import type { CustomField, FieldValue } from '@shared/contract/forms';
import { formSubmissionsFileName, type FormSubmission, type FormSubmissionList } from '@shared/contract/form-submissions';
import { isSecurityLevel } from '@shared/contract/security-levels';
import type { FormResponseSummary } from '@shared/contract/form-response-summary';
import { responseSummary } from '@shared/rules/form-summary';
import { csvText } from '@shared/rules/csv';
import { keptValues, parseKeptValues, submissionExportRows, textsOf, valueColumns, type KeptValues } from '@shared/rules/form-export';
import type { FastifyInstance } from 'fastify';
import { accessDenied } from '../core/http-error';
import type { UserRow } from '../users/users-repository';
import { mayEditForm } from './admin-settings';
import { fieldsOf, formByUuid, levelOf, type FormRow } from './forms';

/**
 * A form's submissions list and CSV export (issue 33 §1, shared/contract/form-submissions.ts):
 * its creator, editors and administrators, like its History tab. Levels 1/2 keep their values as
 * text from migration 0073 on; levels 3/4 list without values (the browser decrypts and exports).
 */

/**
 * What the submission keeps of its values (levels 1/2), as JSON text: per field a text, or a list
 * (chosen options, file names) since issue 33 §4 — so an option holding ", " counts as one option.
 */
export const exportValues = (fields: readonly CustomField[], values: Readonly<Record<string, FieldValue>>): string => JSON.stringify(keptValues(fields, values));

async function readableForm(app: FastifyInstance, user: UserRow, formUuid: string): Promise<FormRow> {
  const row = await formByUuid(app, formUuid);
  if (!(await mayEditForm(app.db, user, row))) throw accessDenied("Only the form's creator, its editors and administrators may read its submissions");
  return row;
}

/** A submission with its kept values as read (lists as lists: the summary counts them). */
type KeptSubmission = FormSubmission & { kept: KeptValues | null };

async function submissionsOf(app: FastifyInstance, row: FormRow, page?: { page: number; pageSize: number }): Promise<KeptSubmission[]> {
  let query = app.db
    .selectFrom('form_submissions as s')
    .leftJoin('deliveries as d', 'd.id', 's.delivery_id')
    .select(['s.id', 's.created_at', 's.submitter_email', 's.completed_at', 's.submission_values', 'd.uuid', 'd.status', 'd.security_level'])
    .where('s.form_id', '=', row.id)
    .orderBy('s.id', 'desc');
  if (page) query = query.limit(page.pageSize).offset((page.page - 1) * page.pageSize);
  const rows = await query.execute();
  return rows.map((r) => {
    const kept = parseKeptValues(r.submission_values);
    return {
      id: r.id,
      at: Number(r.created_at),
      submitter: r.submitter_email,
      // The delivery's level is the one it was sent at (the form's may have changed since).
      securityLevel: r.security_level !== null && isSecurityLevel(r.security_level) ? r.security_level : levelOf(row),
      state: r.completed_at !== null || r.status === 'sent' ? 'sent' : 'open',
      deliveryUuid: r.uuid,
      values: kept === null ? null : textsOf(kept),
      kept,
    };
  });
}

export async function listFormSubmissions(app: FastifyInstance, user: UserRow, formUuid: string, page: number, pageSize: number): Promise<FormSubmissionList> {
  const row = await readableForm(app, user, formUuid);
  const { total } = await app.db
    .selectFrom('form_submissions')
    .where('form_id', '=', row.id)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  return { columns: valueColumns(await fieldsOf(app, row.id)), submissions: (await submissionsOf(app, row, { page, pageSize })).map(({ kept: _kept, ...s }) => s), total: Number(total), page, pageSize };
}

/** Every submission as CSV in the caller's language and separator, with its file name. */
export async function formSubmissionsCsv(app: FastifyInstance, user: UserRow, formUuid: string): Promise<{ text: string; fileName: string }> {
  const row = await readableForm(app, user, formUuid);
  const language = reduceLanguage(user.language);
  const rows = submissionExportRows(valueColumns(await fieldsOf(app, row.id)), await submissionsOf(app, row), language);
  return { text: csvText(rows, language), fileName: formSubmissionsFileName(row.url, new Date().toISOString().slice(0, 10), 'csv') };
}

/** The response summary from the kept values (levels 1/2; submissions without kept values are not counted). */
export async function formResponseSummary(app: FastifyInstance, user: UserRow, formUuid: string): Promise<FormResponseSummary> {
  const row = await readableForm(app, user, formUuid);
  const kept = (await submissionsOf(app, row)).flatMap((s) => (s.kept === null ? [] : [s.kept]));
  return responseSummary(await fieldsOf(app, row.id), kept);
}
