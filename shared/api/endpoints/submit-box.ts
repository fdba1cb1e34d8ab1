import type { GuestTicket, GuestTicketCreate, GuestTicketList } from '@shared/contract/submit-box-guests';
import { SUBMIT_BOX_ENDPOINTS as E } from '@shared/contract/endpoints/submit-box';
import { SUBMIT_TICKET_HEADER } from '@shared/contract/link-token';
import type {
  SubmitBox,
  SubmitBoxPublic,
  SubmitBoxUpdate,
  SubmitStartBody,
  SubmitStartResponse,
  SubmitTicketRequest,
  SubmitTicketSent,
  SubmitTicketState,
} from '@shared/contract/submit-box';
import type { SetSecuPassBody } from '@shared/contract/secupass';
import { call } from '../call';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../client';

/** The submit box's calls (contract `shared/contract/submit-box.ts`). */

export const getSubmitBox = (client: ApiClient): Promise<SubmitBox> => call(client, E.own, {});
export const updateSubmitBox = (client: ApiClient, body: SubmitBoxUpdate): Promise<SubmitBox> => call(client, E.update, { body });
export const sendSubmitTicket = (client: ApiClient, body: SubmitTicketRequest): Promise<SubmitTicketSent> => call(client, E.sendTicket, { body });
export const getPublicSubmitBox = (client: ApiClient, boxUuid: string): Promise<SubmitBoxPublic> => call(client, E.publicBox, { params: { boxUuid } });
export const requestSubmitTicket = (client: ApiClient, boxUuid: string, body: SubmitTicketRequest): Promise<SubmitTicketSent> =>
  call(client, E.requestTicket, { params: { boxUuid }, body });
/** The ticket travels in the x-submit-ticket header, never in the URL (issue 28). */
const withTicket = (ticket: string) => ({ headers: { [SUBMIT_TICKET_HEADER]: ticket } });
export const getSubmitTicket = (client: ApiClient, ticket: string): Promise<SubmitTicketState> => call(client, E.ticket, {}, withTicket(ticket));
export const startSubmission = (client: ApiClient, ticket: string, body: SubmitStartBody): Promise<SubmitStartResponse> =>
  call(client, E.start, { body }, withTicket(ticket));

/** Levels 3/4, with the submit session's client: the submitter's throwaway SecuPass for this draft. */
export const putSubmitterKeys = (client: ApiClient, deliveryUuid: string, body: SetSecuPassBody): Promise<void> =>
  call(client, E.submitterKeys, { params: { deliveryUuid }, body }).then(() => undefined);

/**
 * A client for the submit session of `startSubmission`: every call carries the bearer token, so
 * the upload engine (shared/transfer `sendDelivery` with `{ deliveryUuid }`) drives the draft.
 */
export function submitSessionClient(sessionToken: string, options: Omit<ApiClientOptions, 'fetch'> = {}): ApiClient {
  return createApiClient({
    ...options,
    fetch: (input, init = {}) => globalThis.fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${sessionToken}` } }),
  });
}

/** Guest tickets (issue 33 §3, shared/contract/submit-box-guests.ts). */
export const createGuestTicket = (client: ApiClient, body: GuestTicketCreate): Promise<GuestTicket> => call(client, E.createGuestTicket, { body });
export const listGuestTickets = (client: ApiClient): Promise<GuestTicketList> => call(client, E.guestTickets, {});
export const revokeGuestTicket = (client: ApiClient, ticketUuid: string): Promise<void> => call(client, E.revokeGuestTicket, { params: { ticketUuid } }).then(() => undefined);
