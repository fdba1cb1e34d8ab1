import { DELIVERY_ENDPOINTS } from './deliveries';
import type { Endpoint } from '../endpoint';
import { endpointArea, NoContentSchema } from '../endpoint';
import {
  SubmitBoxParamsSchema,
  SubmitBoxPublicSchema,
  SubmitBoxSchema,
  SubmitBoxUpdateSchema,
  SubmitStartBodySchema,
  SubmitStartResponseSchema,
  SubmitTicketHeadersSchema,
  SubmitTicketRequestSchema,
  SubmitTicketSentSchema,
  SubmitTicketStateSchema,
} from '../submit-box';
import { DeliveryParamsSchema } from '../deliveries';
import { GuestTicketCreateSchema, GuestTicketListSchema, GuestTicketParamsSchema, GuestTicketSchema } from '../submit-box-guests';
import { SetSecuPassBodySchema } from '../secupass';

const OWNER = { roles: ['ROLE_SUBMITBOX_OWNER'] } as const;

const area = endpointArea({ tag: 'submit-box', access: 'public' });

/** The submit box (shared/contract/submit-box.ts): the owner's settings, tickets, the public pages. */
export const SUBMIT_BOX_ENDPOINTS = {
  own: area.get('/submit-box', 'getSubmitBox', "The caller's submit box (created inactive on first read)", {
    response: { 200: SubmitBoxSchema }, errors: [], access: OWNER,
  }),
  update: area.put('/submit-box', 'updateSubmitBox', 'Activates or deactivates the box; allowed levels, validity and the notification', {
    body: SubmitBoxUpdateSchema, response: { 200: SubmitBoxSchema }, errors: [400], access: OWNER,
  }),
  sendTicket: area.post('/submit-box/tickets', 'sendSubmitTicket', 'The owner mails a single-use ticket to an address', {
    body: SubmitTicketRequestSchema, response: { 202: SubmitTicketSentSchema }, errors: [400, 409, 429, 503], access: OWNER,
  }),
  createGuestTicket: area.post('/submit-box/guest-tickets', 'createGuestTicket', 'The owner creates a guest ticket for a named person (subject, message, expiry) and mails it', {
    body: GuestTicketCreateSchema, response: { 201: GuestTicketSchema }, errors: [400, 409, 503], access: OWNER,
  }),
  guestTickets: area.get('/submit-box/guest-tickets', 'listGuestTickets', "The owner's guest tickets with their state (unused, used, expired, revoked), newest first", {
    response: { 200: GuestTicketListSchema }, errors: [], access: OWNER,
  }),
  revokeGuestTicket: area.delete('/submit-box/guest-tickets/{ticketUuid}', 'revokeGuestTicket', "Revokes one of the owner's guest tickets: its link says so from now on", {
    params: GuestTicketParamsSchema, response: { 204: NoContentSchema }, errors: [404, 409], access: OWNER,
  }),
  publicBox: area.get('/submit-boxes/{boxUuid}', 'getPublicSubmitBox', 'The public page: the owner and level, or why the box takes nothing (SPEC §8)', {
    params: SubmitBoxParamsSchema, response: { 200: SubmitBoxPublicSchema }, errors: [404, 409],
  }),
  requestTicket: area.post('/submit-boxes/{boxUuid}/tickets', 'requestSubmitTicket', 'A partner asks for a ticket: the single-use link is mailed (rate limited per address and IP)', {
    params: SubmitBoxParamsSchema, body: SubmitTicketRequestSchema, response: { 202: SubmitTicketSentSchema }, errors: [400, 404, 409, 429, 503],
  }),
  ticket: area.get('/submit-tickets/by-token', 'getSubmitTicket', 'The ticket page: owner and level, or why the ticket cannot be used (SPEC §8); the ticket in the x-submit-ticket header', {
    headers: SubmitTicketHeadersSchema, response: { 200: SubmitTicketStateSchema }, errors: [400, 404, 409],
  }),
  start: area.post('/submit-tickets/by-token/start', 'startSubmission', 'Uses the ticket (x-submit-ticket header) once: a delivery draft to the owner and a session limited to it', {
    headers: SubmitTicketHeadersSchema, body: SubmitStartBodySchema, response: { 201: SubmitStartResponseSchema }, errors: [400, 403, 404, 409],
  }),
  /**
   * Levels 3/4: the partner's browser made a SecuPass for the submitter account with a random
   * passphrase it forgets (shared/crypto README "Submit box"); an earlier one of that account is
   * reset first. Only the submit session of this draft may call it (SUBMIT_SESSION_ENDPOINTS).
   * Level 3/4 web forms use it too (their submit session's draft, sent by a submitter account of
   * that one submission: shared/contract/form-e2e.ts).
   */
  submitterKeys: area.put('/submit-box/deliveries/{deliveryUuid}/keys', 'putSubmitterKeys', "Levels 3/4: the submitter's throwaway SecuPass for this submission (the submit session)", {
    params: DeliveryParamsSchema, body: SetSecuPassBodySchema, response: { 204: NoContentSchema }, errors: [400, 409], access: { roles: ['ROLE_SUBMITTER'] },
  }),
};

/**
 * The delivery calls a submit session (from `start`) may make, on its own draft only: the
 * ordinary upload engine (shared/transfer) drives them like for any delivery.
 */
export const SUBMIT_SESSION_ENDPOINTS: ReadonlySet<Endpoint> = new Set<Endpoint>([
  DELIVERY_ENDPOINTS.one,
  DELIVERY_ENDPOINTS.addFile,
  DELIVERY_ENDPOINTS.removeFile,
  DELIVERY_ENDPOINTS.putPart,
  DELIVERY_ENDPOINTS.parts,
  DELIVERY_ENDPOINTS.commitFile,
  DELIVERY_ENDPOINTS.send,
  // Levels 3/4: the owner's keys, the sender's own key copy, manifest and copies, the throwaway SecuPass.
  DELIVERY_ENDPOINTS.recipientKeys,
  DELIVERY_ENDPOINTS.putOwnKey,
  DELIVERY_ENDPOINTS.putE2e,
  SUBMIT_BOX_ENDPOINTS.submitterKeys,
]);
