import { endpointArea } from '../endpoint';
import { FormHistoryQuerySchema, FormHistorySchema } from '../form-admin';
import { FormTemplateListSchema, FromTemplateBodySchema } from '../form-templates';
import { FormSubmissionListQuerySchema, FormSubmissionListSchema } from '../form-submissions';
import { FormResponseSummarySchema } from '../form-response-summary';
import { FORM_ROLES, FormParamsSchema, FormSchema } from '../forms';

const area = endpointArea({ tag: 'forms', access: { roles: FORM_ROLES } });

/** Form administration beyond the form itself (shared/contract/form-admin.ts): history, templates. */
export const FORM_ADMIN_ENDPOINTS = {
  history: area.get('/forms/{formUuid}/history', 'getFormHistory', "Who changed the form's settings and when, newest first (its creator, editors and administrators)", {
    params: FormParamsSchema, query: FormHistoryQuerySchema, response: { 200: FormHistorySchema }, errors: [404],
  }),
  templates: area.get('/form-templates', 'listFormTemplates', 'The built-in form templates, then the forms the caller may edit', {
    response: { 200: FormTemplateListSchema }, errors: [],
  }),
  fromTemplate: area.post('/forms/from-template', 'createFormFromTemplate', 'A new inactive form from a built-in template or a saved form, with its own name and URL', {
    body: FromTemplateBodySchema, response: { 201: FormSchema }, errors: [400, 404, 409],
  }),
  submissions: area.get('/forms/{formUuid}/submissions', 'listFormSubmissions', "The form's submissions, newest first, with the values of levels 1/2 (its creator, editors and administrators)", {
    params: FormParamsSchema, query: FormSubmissionListQuerySchema, response: { 200: FormSubmissionListSchema }, errors: [404],
  }),
  summary: area.get('/forms/{formUuid}/summary', 'getFormResponseSummary', 'Counts per option of the choice fields, the rating and number figures, from the values of levels 1/2 (its creator, editors and administrators)', {
    params: FormParamsSchema, response: { 200: FormResponseSummarySchema }, errors: [404],
  }),
  submissionsCsv: area.get('/forms/{formUuid}/submissions/csv', 'getFormSubmissionsCsv', "Every submission of the form as CSV (UTF-8 with BOM, the caller's locale separator)", {
    params: FormParamsSchema, response: {}, produces: ['text/csv'], errors: [404],
  }),
};
