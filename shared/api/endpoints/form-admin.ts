import { FORM_ADMIN_ENDPOINTS as E } from '@shared/contract/endpoints/form-admin';
import type { FormHistory } from '@shared/contract/form-admin';
import type { FormTemplateList, FromTemplateBody } from '@shared/contract/form-templates';
import type { Form } from '@shared/contract/forms';
import { call } from '../call';
import type { ApiClient } from '../client';

/** Form administration calls (contract `shared/contract/form-admin.ts`). */

export const getFormHistory = (client: ApiClient, formUuid: string, page: number, pageSize: number): Promise<FormHistory> =>
  call(client, E.history, { params: { formUuid }, query: { page, pageSize } });

export const listFormTemplates = (client: ApiClient): Promise<FormTemplateList> => call(client, E.templates, {});
export const createFormFromTemplate = (client: ApiClient, body: FromTemplateBody): Promise<Form> => call(client, E.fromTemplate, { body });
