import { FORM_ENDPOINTS as E } from '@shared/contract/endpoints/forms';
import type { Form, FormInput, FormList, FormSubmitBody, FormSubmitResponse, PublicForm } from '@shared/contract/forms';
import { call } from '../call';
import type { ApiClient } from '../client';

/** The web-form calls (contract `shared/contract/forms.ts`). Submissions upload with `submitSessionClient` (./submit-box). */

export const listForms = (client: ApiClient): Promise<FormList> => call(client, E.list, {});
export const getForm = (client: ApiClient, formUuid: string): Promise<Form> => call(client, E.one, { params: { formUuid } });
export const createForm = (client: ApiClient, body: FormInput): Promise<Form> => call(client, E.create, { body });
export const updateForm = (client: ApiClient, formUuid: string, body: FormInput): Promise<Form> => call(client, E.update, { params: { formUuid }, body });
export const deleteForm = (client: ApiClient, formUuid: string): Promise<void> => call(client, E.remove, { params: { formUuid } }).then(() => undefined);
export const getPublicForm = (client: ApiClient, formId: string): Promise<PublicForm> => call(client, E.publicForm, { params: { formId } });
export const submitForm = (client: ApiClient, formId: string, body: FormSubmitBody): Promise<FormSubmitResponse> => call(client, E.submit, { params: { formId }, body });
