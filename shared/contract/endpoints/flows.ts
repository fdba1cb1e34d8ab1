import { endpointArea } from '../endpoint';
import { FormParamsSchema, FORM_ROLES } from '../forms';
import {
  FLOW_ROLES,
  FlowListQuerySchema,
  FlowListSchema,
  HandOffParamsSchema,
  HandOffSchema,
  ProcessServiceInputSchema,
  ProcessServiceSchema,
  ProcessServiceSecretSchema,
} from '../flows';
import { FlowAttemptListSchema, FlowAttemptSchema, FormHandOffParamsSchema } from '../flow-attempts';

const area = endpointArea({ tag: 'flows', access: { roles: FLOW_ROLES } });
const FORM_ADMINS = { roles: FORM_ROLES } as const;

/**
 * Flows (shared/contract/flows.ts): a form's process-service option (ROLE_SECUFORMS or ROLE_ADMIN,
 * and only for a form the caller may edit: creator, editors, administrators; others 403) and the
 * Flows page (ROLE_SECUFLOWS_ACCESS).
 */
export const FLOW_ENDPOINTS = {
  processService: area.get('/forms/{formUuid}/process-service', 'getProcessService', "A form's process-service option (JSON attachment, webhook)", {
    params: FormParamsSchema, response: { 200: ProcessServiceSchema }, errors: [404], access: FORM_ADMINS,
  }),
  saveProcessService: area.put('/forms/{formUuid}/process-service', 'saveProcessService', "Turns a form's process service on or off and sets its webhook URL (https, a public address unless the operator allow-lists it)", {
    params: FormParamsSchema, body: ProcessServiceInputSchema, response: { 200: ProcessServiceSchema }, errors: [400, 404], access: FORM_ADMINS,
  }),
  rotateSecret: area.post('/forms/{formUuid}/process-service/secret', 'rotateProcessServiceSecret', 'A new webhook secret, answered once (the previous one stops signing)', {
    params: FormParamsSchema, response: { 201: ProcessServiceSecretSchema }, errors: [404], access: FORM_ADMINS,
  }),
  attempts: area.get('/forms/{formUuid}/process-service/attempts', 'listWebhookAttempts', "The form's last webhook attempts, newest first (time, status code, duration, next attempt due)", {
    params: FormParamsSchema, response: { 200: FlowAttemptListSchema }, errors: [404], access: FORM_ADMINS,
  }),
  testWebhook: area.post('/forms/{formUuid}/process-service/test', 'testWebhook', 'Posts a signed test body (test: true) to the webhook now and answers the attempt', {
    params: FormParamsSchema, response: { 200: FlowAttemptSchema }, errors: [404, 409], access: FORM_ADMINS,
  }),
  sendAgain: area.post('/forms/{formUuid}/process-service/hand-offs/{handOffId}/send-again', 'sendHandOffAgain', "Queues a failed or delivered hand-off of the form to its webhook again", {
    params: FormHandOffParamsSchema, response: { 200: HandOffSchema }, errors: [404, 409], access: FORM_ADMINS,
  }),
  list: area.get('/flows', 'listFlowHandOffs', 'Submissions handed to a process service, newest first, with their JSON and hand-off state', {
    query: FlowListQuerySchema, response: { 200: FlowListSchema }, errors: [400],
  }),
  retry: area.post('/flows/{handOffId}/retry', 'retryFlowHandOff', 'Queues a failed webhook hand-off again', {
    params: HandOffParamsSchema, response: { 200: HandOffSchema }, errors: [404, 409],
  }),
};
