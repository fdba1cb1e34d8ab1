import { FORM_ADMIN_ENDPOINTS as E } from '@shared/contract/endpoints/form-admin';
import type { FormHistory } from '@shared/contract/form-admin';
import type { FormSubmissionList } from '@shared/contract/form-submissions';
import type { FormResponseSummary } from '@shared/contract/form-response-summary';
import type { FormTemplateList, FromTemplateBody } from '@shared/contract/form-templates';
import type { Form } from '@shared/contract/forms';
import { API_BASE } from '@shared/contract/constants';
import { fillPath } from '@shared/contract/endpoint';
import { call } from '../call';
import type { ApiClient } from '../client';

/** Form administration calls (contract `shared/contract/form-admin.ts`). */

export const getFormHistory = (client: ApiClient, formUuid: string, page: number, pageSize: number): Promise<FormHistory> =>
  call(client, E.history, { params: { formUuid }, query: { page, pageSize } });

export const listFormTemplates = (client: ApiClient): Promise<FormTemplateList> => call(client, E.templates, {});
export const createFormFromTemplate = (client: ApiClient, body: FromTemplateBody): Promise<Form> => call(client, E.fromTemplate, { body });

export const getFormSubmissions = (client: ApiClient, formUuid: string, page: number, pageSize: number): Promise<FormSubmissionList> =>
  call(client, E.submissions, { params: { formUuid }, query: { page, pageSize } });
export const getFormResponseSummary = (client: ApiClient, formUuid: string): Promise<FormResponseSummary> => call(client, E.summary, { params: { formUuid } });
/** The CSV download's address (same origin; the browser sends the session cookie). */
export const formSubmissionsCsvUrl = (formUuid: string): string => `${API_BASE}${fillPath(E.submissionsCsv.path, { formUuid })}`;
