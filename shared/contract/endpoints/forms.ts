import { endpointArea, NoContentSchema } from '../endpoint';
import {
  FORM_ROLES,
  FormInputSchema,
  FormListSchema,
  FormParamsSchema,
  FormSchema,
  FormSubmitBodySchema,
  FormSubmitResponseSchema,
  PublicFormParamsSchema,
  PublicFormSchema,
} from '../forms';

const ADMINS = { roles: FORM_ROLES } as const;

const area = endpointArea({ tag: 'forms', access: ADMINS });

/** Web forms (shared/contract/forms.ts): administration (ROLE_SECUFORMS, ROLE_ADMIN) and the public page. */
export const FORM_ENDPOINTS = {
  list: area.get('/forms', 'listForms', 'Every web form, by name', {
    response: { 200: FormListSchema }, errors: [],
  }),
  create: area.post('/forms', 'createForm', 'Creates a web form (SPEC §5 checks; an active form takes an activeForms licence)', {
    body: FormInputSchema, response: { 201: FormSchema }, errors: [400, 409],
  }),
  one: area.get('/forms/{formUuid}', 'getForm', 'One web form with its custom fields', {
    params: FormParamsSchema, response: { 200: FormSchema }, errors: [404],
  }),
  update: area.put('/forms/{formUuid}', 'updateForm', 'Replaces a web form (options, custom fields, disclaimer, layout, translations)', {
    params: FormParamsSchema, body: FormInputSchema, response: { 200: FormSchema }, errors: [400, 404, 409],
  }),
  remove: area.delete('/forms/{formUuid}', 'deleteForm', 'Deletes a web form (its deliveries stay)', {
    params: FormParamsSchema, response: { 204: NoContentSchema }, errors: [404],
  }),
  publicForm: area.get('/public-forms/{formId}', 'getPublicForm', 'The public form page by id or URL slug, or its page state (SPEC §8)', {
    params: PublicFormParamsSchema, response: { 200: PublicFormSchema }, errors: [404, 409], access: 'public',
  }),
  submit: area.post('/public-forms/{formId}/submissions', 'submitForm', 'Checks the values: a delivery draft to the recipients and a session limited to it (then upload and send)', {
    params: PublicFormParamsSchema, body: FormSubmitBodySchema, response: { 201: FormSubmitResponseSchema }, errors: [400, 401, 403, 404, 409], access: 'public',
  }),
};
