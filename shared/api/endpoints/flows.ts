import { FLOW_ENDPOINTS as E } from '@shared/contract/endpoints/flows';
import type { FlowList, HandOff, ProcessService, ProcessServiceInput, ProcessServiceSecret } from '@shared/contract/flows';
import type { FlowAttempt, FlowAttemptList } from '@shared/contract/flow-attempts';
import { call } from '../call';
import type { ApiClient } from '../client';

/** Flows calls (contract `shared/contract/flows.ts`): a form's process service and the Flows page. */

export const getProcessService = (client: ApiClient, formUuid: string): Promise<ProcessService> => call(client, E.processService, { params: { formUuid } });
export const saveProcessService = (client: ApiClient, formUuid: string, body: ProcessServiceInput): Promise<ProcessService> =>
  call(client, E.saveProcessService, { params: { formUuid }, body });
export const rotateProcessServiceSecret = (client: ApiClient, formUuid: string): Promise<ProcessServiceSecret> => call(client, E.rotateSecret, { params: { formUuid } });
export const listHandOffs = (client: ApiClient, query: { cursor?: string; q?: string; limit?: number }): Promise<FlowList> => call(client, E.list, { query });
export const retryHandOff = (client: ApiClient, handOffId: string): Promise<HandOff> => call(client, E.retry, { params: { handOffId } });
export const listWebhookAttempts = (client: ApiClient, formUuid: string): Promise<FlowAttemptList> => call(client, E.attempts, { params: { formUuid } });
export const testWebhook = (client: ApiClient, formUuid: string): Promise<FlowAttempt> => call(client, E.testWebhook, { params: { formUuid } });
export const sendHandOffAgain = (client: ApiClient, formUuid: string, handOffId: string): Promise<HandOff> => call(client, E.sendAgain, { params: { formUuid, handOffId } });
