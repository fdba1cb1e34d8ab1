import { FORM_HISTORY_ACTIONS, type FormHistory, type FormHistoryAction, type FormHistoryChange } from '@shared/contract/form-admin';
import { FORM_ERRORS } from '@shared/contract/forms';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { accessDenied, HttpError } from '../core/http-error';
import type { Database } from '../db/schema';
import type { UserRow } from '../users/users-repository';
import { adminOf, mayEditForm } from './admin-settings';
import './admin-tables';
import './pages';

/**
 * The History tab: every create, change, activation, deactivation and deletion of a form, with
 * who did it and which settings changed. Short settings keep their values before and after;
 * long ones (fields, texts, layout, translations) only their name.
 */

/** Settings whose values the history shows; the rest it names only. */
const SHORT = new Set(['name', 'url', 'active', 'securityLevel', 'captcha', 'onlyAuthenticated', 'mandatoryRecipients', 'optionalRecipients', 'sender', 'disclaimerEnabled', 'editors', 'submitters', 'submitterRole', 'notifyRecipients', 'subjectTemplate']);
const VALUE_MAX = 300;

type Snapshot = Record<string, string>;

/** The form's settings as text, read inside the save's transaction (before and after it writes). */
export async function formSnapshot(trx: Transaction<Database>, formId: number): Promise<Snapshot> {
  const row = await trx.selectFrom('forms').selectAll().where('id', '=', formId).executeTakeFirstOrThrow();
  const fields = await trx.selectFrom('form_custom_fields').select(['name', 'type', 'required', 'settings']).where('form_id', '=', formId).orderBy('position').execute();
  const sender = row.sender_user_id === null ? undefined : await trx.selectFrom('users').select('email').where('id', '=', row.sender_user_id).executeTakeFirst();
  const list = (text: string) => (JSON.parse(text) as string[]).join(', ');
  const { editors, submitters, submitterRole, notifyRecipients, subjectTemplate, confirmationMailText, appearance } = await adminOf(trx, row);
  return {
    name: row.name,
    url: row.url,
    active: String(row.active === 1),
    securityLevel: String(row.security_level),
    captcha: String(row.captcha === 1),
    onlyAuthenticated: String(row.only_authenticated === 1),
    mandatoryRecipients: list(row.mandatory_recipients),
    optionalRecipients: list(row.optional_recipients),
    sender: sender?.email ?? '',
    disclaimerEnabled: String(row.disclaimer_enabled === 1),
    disclaimerText: row.disclaimer_text,
    layout: row.layout,
    translations: row.translations,
    customFields: JSON.stringify(fields),
    editors: editors.join(', '),
    submitters: submitters.join(', '),
    submitterRole: String(submitterRole),
    notifyRecipients: String(notifyRecipients),
    subjectTemplate,
    confirmationMailText,
    appearance: JSON.stringify(appearance),
    processPages: row.process_pages,
  };
}

const clip = (value: string | undefined) => (value === undefined ? null : value.length > VALUE_MAX ? `${value.slice(0, VALUE_MAX)}…` : value);

export function changesBetween(before: Snapshot | null, after: Snapshot): FormHistoryChange[] {
  return Object.keys(after)
    .filter((field) => before?.[field] !== after[field])
    .filter((field) => before !== null || (after[field] !== '' && after[field] !== '[]' && after[field] !== '{}'))
    .map((field) => (SHORT.has(field) ? { field, before: clip(before?.[field]), after: clip(after[field]) } : { field, before: null, after: null }));
}

export async function recordFormHistory(trx: Transaction<Database>, user: UserRow, formUuid: string, action: FormHistoryAction, changes: FormHistoryChange[]): Promise<void> {
  await trx
    .insertInto('form_history')
    .values({ form_uuid: formUuid, user_id: user.id, actor_email: user.email, action, changes: JSON.stringify(changes), created_at: Date.now() })
    .execute();
}

/** After a save: one entry, its action named by the change of `active` (a change without any difference leaves none). */
export async function recordSave(trx: Transaction<Database>, user: UserRow, formUuid: string, formId: number, before: Snapshot | null): Promise<void> {
  const after = await formSnapshot(trx, formId);
  const changes = changesBetween(before, after);
  if (before !== null && changes.length === 0) return;
  const action: FormHistoryAction =
    before === null ? 'created' : before.active !== after.active ? (after.active === 'true' ? 'activated' : 'deactivated') : 'updated';
  await recordFormHistory(trx, user, formUuid, action, changes);
}

/**
 * GET /forms/{formUuid}/history: the form's creator, editors and administrators; a deleted
 * form's history stays readable to administrators.
 */
export async function formHistory(app: FastifyInstance, user: UserRow, formUuid: string, page: number, pageSize: number): Promise<FormHistory> {
  const row = await app.db.selectFrom('forms').select(['id', 'created_by']).where('uuid', '=', formUuid).executeTakeFirst();
  if (!row && !(await app.db.selectFrom('form_history').select('id').where('form_uuid', '=', formUuid).executeTakeFirst())) {
    throw new HttpError(404, FORM_ERRORS.notFound, 'This form does not exist; please check the link');
  }
  const allowed = await mayEditForm(app.db, user, row ?? { id: -1, created_by: -1 });
  if (!allowed) throw accessDenied("Only the form's creator, its editors and administrators may read its history");
  const base = app.db.selectFrom('form_history').where('form_uuid', '=', formUuid);
  const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute();
  return {
    entries: rows.map((r) => ({
      id: r.id,
      at: Number(r.created_at),
      action: (FORM_HISTORY_ACTIONS as readonly string[]).includes(r.action) ? (r.action as FormHistoryAction) : 'updated',
      actor: r.actor_email,
      changes: JSON.parse(r.changes) as FormHistoryChange[],
    })),
    total: Number(total),
    page,
    pageSize,
  };
}
