import { FormAdminSchema, type FormAdmin } from '@shared/contract/form-admin';
import type { FormInputParsed } from '@shared/contract/forms';
import { formAdminProblems } from '@shared/rules/form-admin-rules';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { accessDenied, badRequest } from '../core/http-error';
import type { Database } from '../db/schema';
import { roleNamesOf, type UserRow } from '../users/users-repository';
import './admin-tables';
import type { FormsTable } from './tables';

// The form row as forms.ts has it, from the table: importing forms.ts closed the file cycle
// forms.ts → admin-settings.ts → history.ts → admin-settings.ts (issue 31 §0).
type FormRow = Selectable<FormsTable>;

/**
 * The administration settings of a form (shared/contract/form-admin.ts): the JSON column
 * `forms.admin`, the editors and the allowed submitters (tables, by user id), and who may edit.
 */

type Db = Kysely<Database> | Transaction<Database>;

const isAdmin = (user: UserRow) => roleNamesOf(user).includes('ROLE_ADMIN');

/** Administrators, the creator and the editors of the form; the list shows others nothing of it. */
export async function mayEditForm(db: Db, user: UserRow, row: Pick<FormRow, 'id' | 'created_by'>): Promise<boolean> {
  if (isAdmin(user) || row.created_by === user.id) return true;
  return (await db.selectFrom('form_editors').select('user_id').where('form_id', '=', row.id).where('user_id', '=', user.id).executeTakeFirst()) !== undefined;
}

export async function assertMayEditForm(db: Db, user: UserRow, row: Pick<FormRow, 'id' | 'created_by'>): Promise<void> {
  if (!(await mayEditForm(db, user, row))) throw accessDenied('Only the creator, the editors of this form and administrators may change it');
}

/** The ids of forms a non-administrator may edit (null: every form). */
export async function editableFormIds(db: Db, user: UserRow): Promise<Set<number> | null> {
  if (isAdmin(user)) return null;
  const own = await db.selectFrom('forms').select('id').where('created_by', '=', user.id).execute();
  const edited = await db.selectFrom('form_editors').select('form_id').where('user_id', '=', user.id).execute();
  return new Set([...own.map((r) => r.id), ...edited.map((r) => r.form_id)]);
}

const linkedEmails = async (db: Db, table: 'form_editors' | 'form_submitters', formId: number) =>
  (await db.selectFrom(`${table} as l`).innerJoin('users as u', 'u.id', 'l.user_id').select('u.email').where('l.form_id', '=', formId).orderBy('u.email').execute()).map((r) => r.email.toLowerCase());

function storedSettings(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export async function adminOf(db: Db, row: Pick<FormRow, 'id' | 'admin'>): Promise<FormAdmin> {
  const stored = FormAdminSchema.partial().safeParse(storedSettings(row.admin));
  return FormAdminSchema.parse({
    ...(stored.success ? stored.data : {}),
    editors: await linkedEmails(db, 'form_editors', row.id),
    submitters: await linkedEmails(db, 'form_submitters', row.id),
  });
}

/** Users by address: each must exist and be enabled; `role` (when given) must be held, or ROLE_ADMIN. */
async function usersByEmail(db: Db, emails: string[], field: string, role?: 'ROLE_SECUFORMS'): Promise<number[]> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter((e) => e !== ''))];
  if (wanted.length === 0) return [];
  const rows = await db.selectFrom('users').select(['id', 'email', 'disabled', 'roles']).where(sql<string>`lower(email)`, 'in', wanted).execute();
  const problems = wanted.flatMap((email, index) => {
    const found = rows.find((r) => r.email.toLowerCase() === email);
    if (!found || found.disabled === 1) return [{ field: `admin.${field}.${index}`, reason: 'unknownUser' }];
    const roles = roleNamesOf(found);
    if (role && !roles.includes(role) && !roles.includes('ROLE_ADMIN')) return [{ field: `admin.${field}.${index}`, reason: 'notFormsUser' }];
    return [];
  });
  if (problems.length > 0) throw badRequest('The form has invalid settings', { problems });
  return wanted.map((email) => rows.find((r) => r.email.toLowerCase() === email)!.id);
}

/** §5 checks of the admin settings that need no database (subject placeholders, colours). */
export function checkAdminSettings(input: FormInputParsed): void {
  // A draft may name a field created later; the form is refused once saved active (issue 33 §2).
  const problems = formAdminProblems(input.admin, input.customFields, input.translations, input.processPages, input.securityLevel, input.active);
  // A field named in a template but missing (never made, or removed since) is named in the message.
  const named = problems.find((p) => p.placeholder !== undefined);
  if (named) throw badRequest(`The ${named.field === 'admin.subjectTemplate' ? 'subject template' : 'confirmation text'} names ${named.placeholder}, which this form cannot fill`, { problems });
  if (problems.length > 0) throw badRequest('The form has invalid settings', { problems });
}

/** Writes the settings of a saved form (inside its save transaction). */
export async function writeAdminSettings(trx: Transaction<Database>, formId: number, admin: FormAdmin): Promise<void> {
  const editors = await usersByEmail(trx, admin.editors, 'editors', 'ROLE_SECUFORMS');
  const submitters = await usersByEmail(trx, admin.submitters, 'submitters');
  const { editors: _e, submitters: _s, ...rest } = admin;
  await trx.updateTable('forms').set({ admin: JSON.stringify(rest) }).where('id', '=', formId).execute();
  for (const [table, ids] of [['form_editors', editors], ['form_submitters', submitters]] as const) {
    await trx.deleteFrom(table).where('form_id', '=', formId).execute();
    if (ids.length > 0) await trx.insertInto(table).values(ids.map((user_id) => ({ form_id: formId, user_id }))).execute();
  }
}

/** Only-authenticated forms with a submitter list or the role switch: is this signed-in user allowed? */
export async function maySubmit(app: FastifyInstance, row: Pick<FormRow, 'id' | 'admin'>, user: UserRow): Promise<boolean> {
  const admin = await adminOf(app.db, row);
  if (admin.submitters.length === 0 && !admin.submitterRole) return true;
  if (admin.submitterRole && roleNamesOf(user).includes('ROLE_SUBMITTER')) return true;
  return admin.submitters.includes(user.email.toLowerCase());
}
