import { randomUUID } from 'node:crypto';
import {
  CustomFieldInputSchema,
  FORM_ERRORS,
  FORM_WEB_LINKS,
  FormLayoutInputSchema,
  type CustomField,
  type Form,
  type FormError,
  type FormInputParsed,
  type FormSummary,
} from '@shared/contract/forms';
import { isSecurityLevel } from '@shared/contract/security-levels';
import { processPageProblems } from '@shared/rules/form-pages-rules';
import { conditionProblems } from '@shared/rules/form-conditions';
import { formFooterProblems } from '@shared/rules/form-footer-rules';
import { formConfigProblems } from '@shared/rules/form-rules';
import { nameKey, normaliseName } from '@shared/contract/names';
import type { FastifyInstance } from 'fastify';
import { sql, type Selectable, type Transaction } from 'kysely';
import { badRequest, HttpError } from '../core/http-error';
import type { Database } from '../db/schema';
import { assertLicenceAvailable } from '../licence/licence-counts';
import { roleNamesOf, type UserRow } from '../users/users-repository';
import { assertRecipientsCanDecrypt } from './e2e';
import { adminOf, assertMayEditForm, checkAdminSettings, editableFormIds, writeAdminSettings } from './admin-settings';
import { formSnapshot, recordFormHistory, recordSave } from './history';
import { pagesColumn, pagesOf } from './pages';
import type { FormsTable } from './tables';
import './tables';

export type FormRow = Selectable<FormsTable>;

export const formError = (status: number, error: FormError, message: string, metadata: Record<string, unknown> = {}) => new HttpError(status, error, message, metadata);

const notFound = () => formError(404, FORM_ERRORS.notFound, 'This form does not exist; please check the link');

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export const recipientsOf = (text: string): string[] => parseJson<string[]>(text, []);
export const layoutOf = (row: FormRow) => FormLayoutInputSchema.parse(parseJson<unknown>(row.layout, {}));

export function levelOf(row: FormRow) {
  if (!isSecurityLevel(row.security_level)) throw new Error(`form ${row.uuid}: stored level ${row.security_level} unknown`);
  return row.security_level;
}

export async function formByUuid(app: FastifyInstance, formUuid: string): Promise<FormRow> {
  const row = await app.db.selectFrom('forms').selectAll().where('uuid', '=', formUuid).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** The public page finds a form by its id or its URL slug. */
export async function formByIdOrUrl(app: FastifyInstance, formId: string): Promise<FormRow> {
  const row = await app.db.selectFrom('forms').selectAll().where((eb) => eb.or([eb('uuid', '=', formId), eb('url', '=', formId.toLowerCase())])).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function fieldsOf(app: FastifyInstance, formId: number): Promise<CustomField[]> {
  const rows = await app.db.selectFrom('form_custom_fields').selectAll().where('form_id', '=', formId).orderBy('position').execute();
  return rows.map((r) => CustomFieldInputSchema.parse({ ...parseJson<object>(r.settings, {}), name: r.name, type: r.type, required: r.required === 1 }));
}

const emailOf = async (app: FastifyInstance, userId: number | null) => (userId === null ? null : ((await app.users.findById(userId))?.email ?? null));

export async function toWireForm(app: FastifyInstance, row: FormRow): Promise<Form> {
  return {
    formUuid: row.uuid,
    name: row.name,
    url: row.url,
    active: row.active === 1,
    securityLevel: levelOf(row),
    captcha: row.captcha === 1,
    onlyAuthenticated: row.only_authenticated === 1,
    mandatoryRecipients: recipientsOf(row.mandatory_recipients),
    optionalRecipients: recipientsOf(row.optional_recipients),
    senderEmail: row.sender_user_id === row.created_by ? null : await emailOf(app, row.sender_user_id),
    disclaimerEnabled: row.disclaimer_enabled === 1,
    disclaimerText: row.disclaimer_text,
    layout: layoutOf(row),
    translations: row.translations,
    customFields: await fieldsOf(app, row.id),
    processPages: pagesOf(row),
    admin: await adminOf(app.db, row),
    createdBy: (await emailOf(app, row.created_by)) ?? '',
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    link: publicLink(app, row),
  };
}

/** The public address by the form's slug (what people read and type); a form without one keeps its uuid. */
const publicLink = (app: FastifyInstance, row: { uuid: string; url: string }) => `${app.config.publicUrl}${FORM_WEB_LINKS.public(row.url || row.uuid)}`;

export async function listForms(app: FastifyInstance, user: UserRow): Promise<FormSummary[]> {
  const editable = await editableFormIds(app.db, user);
  const rows = (await app.db.selectFrom('forms').selectAll().orderBy('name_key').execute()).filter((row) => editable === null || editable.has(row.id));
  return rows.map((row) => ({
    formUuid: row.uuid,
    name: row.name,
    url: row.url,
    active: row.active === 1,
    securityLevel: levelOf(row),
    updatedAt: Number(row.updated_at),
    link: publicLink(app, row),
  }));
}

/** §5 checks that need the database: unique name and URL, an existing sender account. */
async function checkAgainstDatabase(trx: Transaction<Database>, input: FormInputParsed, exceptId: number | null): Promise<number | null> {
  const others = trx.selectFrom('forms').select('id').where('id', '!=', exceptId ?? -1);
  if (await others.where('name_key', '=', formNameKey(input.name)).executeTakeFirst()) {
    throw formError(409, FORM_ERRORS.duplicateName, 'A form with this name exists already', { field: 'name' });
  }
  if (await others.where('url', '=', input.url).executeTakeFirst()) {
    throw formError(409, FORM_ERRORS.duplicateUrl, 'A form with this URL exists already', { field: 'url' });
  }
  if (input.senderEmail === null) return null;
  const sender = await trx.selectFrom('users').select(['id', 'disabled']).where(sql`lower(email)`, '=', input.senderEmail.trim().toLowerCase()).executeTakeFirst();
  if (!sender || sender.disabled === 1) throw badRequest('The sender must be an existing, enabled account', { problems: [{ field: 'senderEmail', reason: 'unknownSender' }] });
  return sender.id;
}

/** Form names are stored and compared in NFC (the one name rule), case-insensitively. */
const formNameKey = (name: string) => nameKey(name.trim());

const normalised = (list: string[]) => [...new Set(list.map((r) => r.trim().toLowerCase()))];

function rowValues(input: FormInputParsed) {
  return {
    name: normaliseName(input.name.trim()),
    name_key: formNameKey(input.name),
    url: input.url,
    active: input.active ? 1 : 0,
    security_level: input.securityLevel,
    captcha: input.captcha ? 1 : 0,
    only_authenticated: input.onlyAuthenticated ? 1 : 0,
    mandatory_recipients: JSON.stringify(normalised(input.mandatoryRecipients)),
    optional_recipients: JSON.stringify(normalised(input.optionalRecipients)),
    disclaimer_enabled: input.disclaimerEnabled ? 1 : 0,
    disclaimer_text: input.disclaimerText,
    layout: JSON.stringify(input.layout),
    translations: input.translations,
    process_pages: pagesColumn(input.processPages),
  };
}

async function writeFields(trx: Transaction<Database>, formId: number, fields: CustomField[]): Promise<void> {
  await trx.deleteFrom('form_custom_fields').where('form_id', '=', formId).execute();
  if (fields.length === 0) return;
  await trx
    .insertInto('form_custom_fields')
    .values(fields.map(({ name, type, required, ...settings }, position) => ({ form_id: formId, position, name: normaliseName(name.trim()), type, required: required ? 1 : 0, settings: JSON.stringify(settings) })))
    .execute();
}

function checkConfig(input: FormInputParsed): void {
  const problems = [...formConfigProblems(input), ...processPageProblems(input.processPages, input.customFields), ...conditionProblems(input.processPages, input.customFields), ...formFooterProblems(input.layout.footer)];
  if (problems.length > 0) throw badRequest('The form has invalid settings', { problems });
}

/**
 * Creates or replaces a form in one transaction. Activating (a new active form, or inactive →
 * active) takes an `activeForms` licence: beyond the cap 409 LicenseLimitExceededException.
 */
export async function saveForm(app: FastifyInstance, user: UserRow, input: FormInputParsed, formUuid?: string): Promise<FormRow> {
  checkConfig(input);
  checkAdminSettings(input);
  const uuid = formUuid ?? randomUUID();
  try {
    await writeForm(app, user, input, uuid, formUuid);
  } catch (error) {
    // Two saves racing for one name or URL: the loser re-checks and gets the §8 answer, not a 500.
    if (!(error instanceof HttpError) && /unique|duplicate key/i.test(String((error as Error).message))) {
      const exceptId = formUuid === undefined ? null : (await formByUuid(app, formUuid)).id;
      await app.db.transaction().execute((trx) => checkAgainstDatabase(trx, input, exceptId));
    }
    throw error;
  }
  return formByUuid(app, uuid);
}

async function writeForm(app: FastifyInstance, user: UserRow, input: FormInputParsed, uuid: string, formUuid: string | undefined): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const existing = formUuid === undefined ? undefined : await trx.selectFrom('forms').selectAll().where('uuid', '=', formUuid).executeTakeFirst();
    if (formUuid !== undefined && !existing) throw notFound();
    if (existing) await assertMayEditForm(trx, user, existing);
    const before = existing ? await formSnapshot(trx, existing.id) : null;
    const senderId = await checkAgainstDatabase(trx, input, existing?.id ?? null);
    await assertRecipientsCanDecrypt(trx, input);
    // Submissions are sent in the sender's name: only an administrator names someone else (a form keeps the sender it has).
    if (senderId !== null && senderId !== user.id && senderId !== existing?.sender_user_id && !roleNamesOf(user).includes('ROLE_ADMIN')) {
      throw badRequest('Only an administrator may name another account as the sender', { problems: [{ field: 'senderEmail', reason: 'senderNotAllowed' }] });
    }
    if (input.active && existing?.active !== 1) await assertLicenceAvailable(trx, app.config, 'activeForms');
    const now = Date.now();
    let formId: number;
    if (existing) {
      await trx.updateTable('forms').set({ ...rowValues(input), sender_user_id: senderId ?? existing.created_by, updated_at: now }).where('id', '=', existing.id).execute();
      formId = existing.id;
    } else {
      const inserted = await trx
        .insertInto('forms')
        .values({ ...rowValues(input), uuid, sender_user_id: senderId ?? user.id, created_by: user.id, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      formId = inserted.id;
    }
    await writeFields(trx, formId, input.customFields);
    await writeAdminSettings(trx, formId, input.admin);
    await recordSave(trx, user, uuid, formId, before);
  });
}

export async function deleteForm(app: FastifyInstance, user: UserRow, formUuid: string): Promise<void> {
  const row = await formByUuid(app, formUuid);
  await assertMayEditForm(app.db, user, row);
  await app.db.transaction().execute(async (trx) => {
    await recordFormHistory(trx, user, row.uuid, 'deleted', [{ field: 'name', before: row.name, after: null }]);
    await trx.deleteFrom('forms').where('id', '=', row.id).execute();
  });
}
