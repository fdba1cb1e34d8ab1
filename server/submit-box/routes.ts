import { SUBMIT_BOX_ENDPOINTS } from '@shared/contract/endpoints/submit-box';
import { SUBMIT_TICKET_HEADER } from '@shared/contract/link-token';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { requestContext } from '../core/request-context';
import { tokenHeader } from '../core/token-header';
import { boxByUuid, openBox, ownBox, ownerName, toWireBox, updateBox } from './boxes';
import { createGuestTicket, listGuestTickets, revokeGuestTicket } from './guest-tickets';
import { putSubmitterKeys } from './submitter-keys';
import { issueTicket, startSubmission, ticketState } from './tickets';

/**
 * The submit box (shared/contract/submit-box.ts). The owner's calls need ROLE_SUBMITBOX_OWNER;
 * the public page and the ticket page are public (the box id, the mailed ticket), rate limited
 * where they mail. Levels 3/4: the submit session stores the submitter's throwaway keys
 * (submitter-keys.ts), then encrypts like any E2E sender. A submission is an ordinary delivery to the owner: `start` makes the draft and
 * a session limited to it, the web client uploads and sends through the delivery calls.
 */
export const submitBoxRoutes = routePlugin('kuvert-submit-box-routes', async (app) => {
  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.own, async (request) => {
    const { user } = requestContext(app, request);
    return toWireBox(app, await ownBox(app, user));
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.update, async (request) => {
    const { user } = requestContext(app, request);
    return toWireBox(app, await updateBox(app, user, request.body));
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.sendTicket, async (request, reply) => {
    const { user, log } = requestContext(app, request);
    const open = await openBox(app, await ownBox(app, user));
    const sent = await issueTicket(app, open, { ...request.body, ip: request.ip }, log);
    void reply.code(202);
    return sent;
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.createGuestTicket, async (request, reply) => {
    const { user, log } = requestContext(app, request);
    const created = await createGuestTicket(app, user, request.body, log);
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.guestTickets, async (request) => listGuestTickets(app, requestContext(app, request).user));

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.revokeGuestTicket, async (request, reply) => {
    await revokeGuestTicket(app, requestContext(app, request).user, request.params.ticketUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.publicBox, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const open = await openBox(app, await boxByUuid(app, request.params.boxUuid));
    return { ownerName: ownerName(open.owner), securityLevel: open.level };
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.requestTicket, async (request, reply) => {
    const open = await openBox(app, await boxByUuid(app, request.params.boxUuid));
    const sent = await issueTicket(app, open, { ...request.body, ip: request.ip }, request.log);
    void reply.code(202);
    return sent;
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.ticket, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return ticketState(app, tokenHeader(request, SUBMIT_TICKET_HEADER));
  });

  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.start, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const started = await startSubmission(app, tokenHeader(request, SUBMIT_TICKET_HEADER), request.body, request.log);
    void reply.code(201);
    return started;
  });

  // The submit session only (access.ts enforceSubmitScope: its own draft).
  registerEndpoint(app, SUBMIT_BOX_ENDPOINTS.submitterKeys, async (request, reply) => {
    await putSubmitterKeys(requestContext(app, request), request.params.deliveryUuid, request.body);
    void reply.code(204);
    return null;
  });
});
