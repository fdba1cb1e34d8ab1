import { DELIVERY_ENDPOINTS } from './deliveries';
import type { Endpoint } from '../endpoint';
import { defineEndpoint } from '../endpoint';
import {
  SubmitBoxParamsSchema,
  SubmitBoxPublicSchema,
  SubmitBoxSchema,
  SubmitBoxUpdateSchema,
  SubmitStartBodySchema,
  SubmitStartResponseSchema,
  SubmitTicketParamsSchema,
  SubmitTicketRequestSchema,
  SubmitTicketSentSchema,
  SubmitTicketStateSchema,
} from '../submit-box';

const OWNER = { roles: ['ROLE_SUBMITBOX_OWNER'] } as const;

/** The submit box (shared/contract/submit-box.ts): the owner's settings, tickets, the public pages. */
export const SUBMIT_BOX_ENDPOINTS = {
  own: defineEndpoint({
    method: 'GET',
    path: '/submit-box',
    response: { 200: SubmitBoxSchema },
    errors: [],
    access: OWNER,
    operationId: 'getSubmitBox',
    summary: "The caller's submit box (created inactive on first read)",
    tag: 'submit-box',
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/submit-box',
    body: SubmitBoxUpdateSchema,
    response: { 200: SubmitBoxSchema },
    errors: [400],
    access: OWNER,
    operationId: 'updateSubmitBox',
    summary: 'Activates or deactivates the box; allowed levels and validity',
    tag: 'submit-box',
  }),
  sendTicket: defineEndpoint({
    method: 'POST',
    path: '/submit-box/tickets',
    body: SubmitTicketRequestSchema,
    response: { 202: SubmitTicketSentSchema },
    errors: [400, 409, 429, 503],
    access: OWNER,
    operationId: 'sendSubmitTicket',
    summary: 'The owner mails a single-use ticket to an address',
    tag: 'submit-box',
  }),
  publicBox: defineEndpoint({
    method: 'GET',
    path: '/submit-boxes/{boxUuid}',
    params: SubmitBoxParamsSchema,
    response: { 200: SubmitBoxPublicSchema },
    errors: [404, 409],
    access: 'public',
    operationId: 'getPublicSubmitBox',
    summary: 'The public page: the owner and level, or why the box takes nothing (SPEC §8)',
    tag: 'submit-box',
  }),
  requestTicket: defineEndpoint({
    method: 'POST',
    path: '/submit-boxes/{boxUuid}/tickets',
    params: SubmitBoxParamsSchema,
    body: SubmitTicketRequestSchema,
    response: { 202: SubmitTicketSentSchema },
    errors: [400, 404, 409, 429, 503],
    access: 'public',
    operationId: 'requestSubmitTicket',
    summary: 'A partner asks for a ticket: the single-use link is mailed (rate limited per address and IP)',
    tag: 'submit-box',
  }),
  ticket: defineEndpoint({
    method: 'GET',
    path: '/submit-tickets/{ticket}',
    params: SubmitTicketParamsSchema,
    response: { 200: SubmitTicketStateSchema },
    errors: [404, 409],
    access: 'public',
    operationId: 'getSubmitTicket',
    summary: 'The ticket page: owner and level, or why the ticket cannot be used (SPEC §8)',
    tag: 'submit-box',
  }),
  start: defineEndpoint({
    method: 'POST',
    path: '/submit-tickets/{ticket}/start',
    params: SubmitTicketParamsSchema,
    body: SubmitStartBodySchema,
    response: { 201: SubmitStartResponseSchema },
    errors: [400, 403, 404, 409],
    access: 'public',
    operationId: 'startSubmission',
    summary: 'Uses the ticket once: a delivery draft to the owner and a session limited to it',
    tag: 'submit-box',
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
]);
