import {
  ActivityResponseSchema,
  AddFileBodySchema,
  CreateDeliveryBodySchema,
  DeliveryDetailSchema,
  DeliveryListQuerySchema,
  DeliveryPageSchema,
  DeliveryParamsSchema,
  DeliveryUploadFileSchema,
  E2eResponseSchema,
  FileParamsSchema,
  OwnFileKeySchema,
  PartParamsSchema,
  PartSchema,
  PartsResponseSchema,
  PutE2eBodySchema,
  RecipientKeysResponseSchema,
  RecipientStatusBodySchema,
  RecipientStatusResponseSchema,
  ReleaseBodySchema,
  ReleaseListSchema,
  ResendNotificationBodySchema,
  ResendNotificationResponseSchema,
  TokenQuerySchema,
  UpdateDeliveryBodySchema,
} from '../deliveries';
import { endpointArea, NoContentSchema } from '../endpoint';

/**
 * Sending, uploading and drafting need the sender role (SPEC §6); delivery-signup accounts
 * (ROLE_SENDER_EXTERNAL) may send replies only, which the server's senders.ts enforces on the recipients.
 */
const SENDER = { roles: ['ROLE_SENDER', 'ROLE_SENDER_EXTERNAL'] } as const;

const deliveries = endpointArea({ tag: 'deliveries', access: SENDER });

/** Deliveries (levels 1–4): drafts, resumable uploads, send, inbox, sent, download, delete, resend, activity, E2E manifests, release. */
export const DELIVERY_ENDPOINTS = {
  create: deliveries.post('/deliveries', 'createDelivery', 'Creates a draft delivery', {
    body: CreateDeliveryBodySchema, response: { 201: DeliveryDetailSchema }, errors: [400, 401, 403],
  }),
  update: deliveries.patch('/deliveries/{deliveryUuid}', 'updateDraft', "Changes a draft's fields (checked like a new draft)", {
    params: DeliveryParamsSchema, body: UpdateDeliveryBodySchema, response: { 200: DeliveryDetailSchema }, errors: [400, 401, 403, 404, 409],
  }),
  addFile: deliveries.post('/deliveries/{deliveryUuid}/files', 'addDeliveryFile', 'Announces a file of a draft: name, size and type are checked, space is reserved; answers the part layout', {
    params: DeliveryParamsSchema, body: AddFileBodySchema, response: { 201: DeliveryUploadFileSchema }, errors: [400, 401, 403, 404, 409, 413, 507],
  }),
  removeFile: deliveries.delete('/deliveries/{deliveryUuid}/files/{fileId}', 'removeDeliveryFile', 'Removes a file from a draft', {
    params: FileParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404, 409],
  }),
  putPart: deliveries.put('/deliveries/{deliveryUuid}/files/{fileId}/parts/{index}', 'uploadPart', 'Uploads one part (application/octet-stream, header x-content-sha256); idempotent', {
    params: PartParamsSchema, response: { 200: PartSchema }, errors: [400, 401, 403, 404, 409, 415, 503], consumes: 'application/octet-stream',
  }),
  parts: deliveries.get('/deliveries/{deliveryUuid}/files/{fileId}/parts', 'listParts', 'Parts received so far (to resume an upload)', {
    params: FileParamsSchema, response: { 200: PartsResponseSchema }, errors: [401, 403, 404],
  }),
  putOwnKey: deliveries.put('/deliveries/{deliveryUuid}/files/{fileId}/own-key', 'putOwnFileKey', "Levels 3/4: the file key wrapped to the sender's own key, kept on the draft for a resume (the draft's sender)", {
    params: FileParamsSchema, body: OwnFileKeySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404, 409],
  }),
  commitFile: deliveries.post('/deliveries/{deliveryUuid}/files/{fileId}/commit', 'commitFile', 'Completes a file once every part is in; before this nothing of it can be downloaded', {
    params: FileParamsSchema, response: { 200: DeliveryUploadFileSchema }, errors: [400, 401, 403, 404, 409],
  }),
  send: deliveries.post('/deliveries/{deliveryUuid}/send', 'sendDelivery', 'Sends a draft: every rule is checked, recipients are mailed', {
    params: DeliveryParamsSchema, response: { 200: DeliveryDetailSchema }, errors: [400, 401, 403, 404, 409],
  }),
  recipientKeys: deliveries.get('/deliveries/{deliveryUuid}/recipient-keys', 'getRecipientKeys', "Levels 3/4: the recipients' SecuPass state and public keys (the draft's sender)", {
    params: DeliveryParamsSchema, response: { 200: RecipientKeysResponseSchema }, errors: [400, 401, 403, 404, 409, 429],
  }),
  putE2e: deliveries.put('/deliveries/{deliveryUuid}/e2e', 'putE2eManifest', 'Levels 3/4: the encrypted signed manifest and the wrapped file keys (the draft\'s sender)', {
    params: DeliveryParamsSchema, body: PutE2eBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404, 409, 413],
  }),
  e2e: deliveries.get('/deliveries/{deliveryUuid}/e2e', 'getE2eManifest', "Levels 3/4: the encrypted manifest and the caller's own wrapped file keys", {
    params: DeliveryParamsSchema, response: { 200: E2eResponseSchema }, errors: [401, 404], access: 'authenticated',
  }),
  recipientStatus: deliveries.post('/deliveries/recipient-status', 'checkRecipientStatus', 'Registered / has a passphrase, per address (the send page chip warnings); rate limited', {
    body: RecipientStatusBodySchema, response: { 200: RecipientStatusResponseSchema }, errors: [400, 401, 403, 429],
  }),
  releaseList: deliveries.get('/deliveries/release', 'listReleases', 'Recipients waiting for the caller to release a level 3/4 delivery', {
    response: { 200: ReleaseListSchema }, errors: [401, 403],
  }),
  release: deliveries.post('/deliveries/{deliveryUuid}/release', 'releaseDelivery', "Release: the file keys re-wrapped to one waiting recipient's key; the recipient is mailed", {
    params: DeliveryParamsSchema, body: ReleaseBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404, 409],
  }),
  inbox: deliveries.get('/deliveries/inbox', 'getInbox', 'Deliveries to the caller, newest first', {
    query: DeliveryListQuerySchema, response: { 200: DeliveryPageSchema }, errors: [400, 401], access: 'authenticated',
  }),
  sent: deliveries.get('/deliveries/sent', 'getSent', "The caller's sent deliveries, newest first", {
    query: DeliveryListQuerySchema, response: { 200: DeliveryPageSchema }, errors: [400, 401], access: 'authenticated',
  }),
  one: deliveries.get('/deliveries/{deliveryUuid}', 'getDelivery', 'One delivery (sender, recipient, or level-1 token holder)', {
    params: DeliveryParamsSchema, query: TokenQuerySchema, response: { 200: DeliveryDetailSchema }, errors: [401, 403, 404], access: 'public',
  }),
  remove: deliveries.delete('/deliveries/{deliveryUuid}', 'deleteDelivery', 'The sender deletes for everyone; a recipient removes it from their inbox', {
    params: DeliveryParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404], access: 'authenticated',
  }),
  content: deliveries.get('/deliveries/{deliveryUuid}/files/{fileId}/content', 'downloadFile', 'The bytes of a committed file; Range requests answer 206', {
    params: FileParamsSchema, query: TokenQuerySchema, response: {},
    errors: [401, 403, 404, 416, 503], access: 'public', produces: ['application/octet-stream'],
  }),
  resend: deliveries.post('/deliveries/{deliveryUuid}/resend-notification', 'resendNotification', 'Mails the recipients again (level 1: with a fresh link)', {
    params: DeliveryParamsSchema, body: ResendNotificationBodySchema.optional(), response: { 200: ResendNotificationResponseSchema },
    errors: [400, 401, 403, 404, 409], access: 'authenticated',
  }),
  activity: deliveries.get('/deliveries/{deliveryUuid}/activity', 'getActivity', 'Activity log of a delivery', {
    params: DeliveryParamsSchema, response: { 200: ActivityResponseSchema }, errors: [401, 404], access: 'authenticated',
  }),
};
