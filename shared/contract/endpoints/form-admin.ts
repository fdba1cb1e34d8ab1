import { endpointArea } from '../endpoint';
import { FormHistoryQuerySchema, FormHistorySchema } from '../form-admin';
import { FORM_ROLES, FormParamsSchema } from '../forms';

const area = endpointArea({ tag: 'forms', access: { roles: FORM_ROLES } });

/** Form administration beyond the form itself (shared/contract/form-admin.ts): history. */
export const FORM_ADMIN_ENDPOINTS = {
  history: area.get('/forms/{formUuid}/history', 'getFormHistory', "Who changed the form's settings and when, newest first (its creator, editors and administrators)", {
    params: FormParamsSchema, query: FormHistoryQuerySchema, response: { 200: FormHistorySchema }, errors: [404],
  }),
};
