import { BUILT_IN_FORM_TEMPLATES, BUILT_IN_TEMPLATE_IDS, type BuiltInTemplateId, type FormTemplate, type FromTemplateBody } from '@shared/contract/form-templates';
import { FORM_ERRORS, FormInputSchema, type FormInputParsed } from '@shared/contract/forms';
import { SERVER_READABLE_LEVELS } from '@shared/contract/security-levels';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../core/http-error';
import type { UserRow } from '../users/users-repository';
import { assertMayEditForm, editableFormIds } from './admin-settings';
import { formByUuid, saveForm, toWireForm, type FormRow } from './forms';

/**
 * The templates page: built-in templates (shared/contract/form-templates.ts) and the forms the
 * caller may edit; a new form from either is inactive and records "created" in its history.
 */

const isBuiltIn = (id: string): id is BuiltInTemplateId => (BUILT_IN_TEMPLATE_IDS as string[]).includes(id);

export async function listTemplates(app: FastifyInstance, user: UserRow): Promise<FormTemplate[]> {
  const builtIn: FormTemplate[] = BUILT_IN_TEMPLATE_IDS.map((id) => ({ id, kind: 'builtIn', name: id, fieldNames: BUILT_IN_FORM_TEMPLATES[id].customFields.map((f) => f.name) }));
  const editable = await editableFormIds(app.db, user);
  const forms = (await app.db.selectFrom('forms').select(['id', 'uuid', 'name']).orderBy('name_key').execute()).filter((f) => editable === null || editable.has(f.id));
  const fields = forms.length === 0 ? [] : await app.db.selectFrom('form_custom_fields').select(['form_id', 'name']).where('form_id', 'in', forms.map((f) => f.id)).orderBy('position').execute();
  return [...builtIn, ...forms.map((f) => ({ id: f.uuid, kind: 'form' as const, name: f.name, fieldNames: fields.filter((x) => x.form_id === f.id).map((x) => x.name) }))];
}

/** A built-in template: sent to the creator until they name recipients; a saved form: its settings, without its editors. */
async function templateInput(app: FastifyInstance, user: UserRow, body: FromTemplateBody): Promise<FormInputParsed> {
  if (isBuiltIn(body.template)) {
    return FormInputSchema.parse({ ...BUILT_IN_FORM_TEMPLATES[body.template], name: body.name, url: body.url, securityLevel: SERVER_READABLE_LEVELS[0], mandatoryRecipients: [user.email] });
  }
  let row: FormRow;
  try {
    row = await formByUuid(app, body.template);
  } catch {
    throw new HttpError(404, FORM_ERRORS.notFound, 'No such template', { field: 'template' });
  }
  await assertMayEditForm(app.db, user, row);
  const { formUuid: _u, createdBy: _c, createdAt: _a, updatedAt: _t, link: _l, ...source } = await toWireForm(app, row);
  return FormInputSchema.parse({ ...source, name: body.name, url: body.url, active: false, admin: { ...source.admin, editors: [] } });
}

export async function createFromTemplate(app: FastifyInstance, user: UserRow, body: FromTemplateBody): Promise<FormRow> {
  return saveForm(app, user, await templateInput(app, user, body));
}
