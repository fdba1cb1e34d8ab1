import { endpointArea, NoContentSchema } from '../endpoint';
import {
  TrustConnectionInputSchema,
  TrustConnectionListSchema,
  TrustConnectionParamsSchema,
  TrustConnectionSchema,
  TrustAckSchema,
  TrustCompleteSchema,
  TrustDeliveryAnnounceSchema,
  TrustDeliveryStateSchema,
  TrustPartParamsSchema,
  TrustPingSchema,
  TrustPongSchema,
  TrustReceiptSchema, TrustKeyLookupSchema, TrustKeysSchema, TrustReleaseSchema, TrustReleaseNeededSchema,
  TrustTransferParamsSchema,
} from '../trust-networks';

const area = endpointArea({ tag: 'trust-networks', access: { roles: ['ROLE_ADMIN'] } });

/**
 * Trust networks (shared/contract/trust-networks.ts): the connections (ROLE_ADMIN, SPEC §6; everyone
 * else 403) and the partner endpoint. The ping is `public` for the session check: who may call it
 * is a partner server, proven by an RFC 9421 signature by the key of a live connection, verified in
 * its handler before anything else (server/trust-networks/signatures.ts).
 */
export const TRUST_NETWORK_ENDPOINTS = {
  list: area.get('/admin/trust-networks', 'listTrustConnections', 'The trust connections, newest first', {
    response: { 200: TrustConnectionListSchema }, errors: [401, 403],
  }),
  create: area.post('/admin/trust-networks', 'createTrustConnection', 'A new trust connection; the server makes its own Ed25519 key pair', {
    body: TrustConnectionInputSchema, response: { 201: TrustConnectionSchema }, errors: [400, 401, 403, 409],
  }),
  get: area.get('/admin/trust-networks/{connectionId}', 'getTrustConnection', 'One trust connection', {
    params: TrustConnectionParamsSchema, response: { 200: TrustConnectionSchema }, errors: [400, 401, 403, 404],
  }),
  update: area.put('/admin/trust-networks/{connectionId}', 'updateTrustConnection', "Changes a connection's partner URL, domains or key (a change makes it testable again)", {
    params: TrustConnectionParamsSchema, body: TrustConnectionInputSchema, response: { 200: TrustConnectionSchema }, errors: [400, 401, 403, 404, 409],
  }),
  remove: area.delete('/admin/trust-networks/{connectionId}', 'deleteTrustConnection', 'Deletes a connection; its keys are refused from then on', {
    params: TrustConnectionParamsSchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404],
  }),
  test: area.post('/admin/trust-networks/{connectionId}/test', 'testTrustConnection', "A signed round trip to the partner's ping; the connection answers with the result (established, or error with the step that failed)", {
    params: TrustConnectionParamsSchema, response: { 200: TrustConnectionSchema }, errors: [400, 401, 403, 404, 409],
  }),
  ping: area.post('/trust/ping', 'trustPing', 'Partner servers only: a ping signed per RFC 9421 by the key of a live connection, answered signed (docs/trust-networks.md)', {
    access: 'public', body: TrustPingSchema, response: { 200: TrustPongSchema }, errors: [400, 401],
  }),
  // Deliveries across a connection (slice 2): partner servers only, each call signed like the ping.
  deliveryAnnounce: area.post('/trust/deliveries', 'trustDeliveryAnnounce', 'Partner servers only: announces a delivery (levels 1–4) to recipients this server serves; answers the parts still missing (docs/trust-networks.md, "Deliveries")', {
    access: 'public', body: TrustDeliveryAnnounceSchema, response: { 200: TrustDeliveryStateSchema }, errors: [400, 401, 403, 429, 507],
  }),
  deliveryPart: area.put('/trust/deliveries/{transferId}/files/{fileId}/parts/{index}', 'trustDeliveryPart', 'Partner servers only: one part (application/octet-stream), checked against its signed content digest; idempotent', {
    access: 'public', params: TrustPartParamsSchema, response: { 200: TrustAckSchema }, errors: [400, 401, 403, 404, 429], consumes: 'application/octet-stream',
  }),
  deliveryComplete: area.post('/trust/deliveries/{transferId}/complete', 'trustDeliveryComplete', "Partner servers only: every part is there; the delivery goes into its recipients' inboxes and they are mailed by this server", {
    access: 'public', params: TrustTransferParamsSchema, body: TrustCompleteSchema, response: { 200: TrustDeliveryStateSchema }, errors: [400, 401, 403, 429],
  }),
  receipt: area.post('/trust/receipts', 'trustReceipt', "Partner servers only: a recipient's first download of a delivery this server pushed to the partner", {
    access: 'public', body: TrustReceiptSchema, response: { 200: TrustAckSchema }, errors: [400, 401, 403, 429],
  }),
  // Levels 3/4 (issue 30 §2): the sender's server relays its browser's key look-ups, signed.
  keyLookup: area.post('/trust/keys', 'trustKeyLookup', "Partner servers only: the public keys of this server's users at the addresses asked (levels 3/4); an address it does not serve is refused", {
    access: 'public', body: TrustKeyLookupSchema, response: { 200: TrustKeysSchema }, errors: [400, 401, 403, 429],
  }),
  release: area.post('/trust/deliveries/{transferId}/release', 'trustRelease', "Partner servers only: the sender's copies for a recipient here who set a passphrase after the delivery came (levels 3/4)", {
    access: 'public', params: TrustTransferParamsSchema, body: TrustReleaseSchema, response: { 200: TrustAckSchema }, errors: [400, 401, 403, 429],
  }),
  releaseNeeded: area.post('/trust/release-needed', 'trustReleaseNeeded', "Partner servers only: a recipient there set a passphrase and waits for the release by the sender here (levels 3/4)", {
    access: 'public', body: TrustReleaseNeededSchema, response: { 200: TrustAckSchema }, errors: [400, 401, 403, 429],
  }),
};
