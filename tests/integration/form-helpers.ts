import type { Form, FormInput, FormSubmitResponse } from '@shared/contract/forms';
import type { TestServer } from '@tests/support/server';
import { expect } from 'vitest';
import { call, type Session } from './core-helpers';

/** Form tests' common calls against a real server (issue 33 §3 suites). */

export const formApi = (path: string) => `/api/2${path}`;

/** Creates a form as `session` (201 expected). */
export async function createFormAs(server: TestServer, session: Session, input: FormInput): Promise<Form> {
  const response = await call(server, session, 'POST', formApi('/forms'), input);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Form;
}

/** An anonymous submission's first call: the raw answer (a test checks its status). */
export const postSubmission = (server: TestServer, formId: string, values: Record<string, unknown>): Promise<Response> =>
  fetch(`${server.url}${formApi(`/public-forms/${formId}/submissions`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values, language: 'en' }) });

/** An anonymous submission that must be taken (201). */
export async function submitValues(server: TestServer, formId: string, values: Record<string, unknown>): Promise<FormSubmitResponse> {
  const response = await postSubmission(server, formId, values);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as FormSubmitResponse;
}

/** GET as `session`, 200 expected, the JSON answer. */
export async function getJson<T>(server: TestServer, session: Session, path: string): Promise<T> {
  const response = await call(server, session, 'GET', formApi(path));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}
