import { DELIVERY_ENDPOINTS as E } from '@shared/contract/endpoints/deliveries';
import {
  CONTENT_SHA256_HEADER,
  type AddFileBody,
  type CreateDeliveryBody,
  type DeliveryDetail,
  type DeliveryUploadFile,
  type OwnFileKey,
  type Part,
  type PartsResponse,
  type RecipientStatusResponse,
  type UpdateDeliveryBody,
} from '@shared/contract/deliveries';
import { call } from '../call';
import type { ApiClient } from '../client';

/*
 * The sender's calls of a delivery (table in shared/contract/deliveries.ts): draft, files in
 * parts, commit, send. The upload engine (shared/transfer) drives them; screens normally call
 * `sendDelivery` instead of these.
 */

/** POST /deliveries (ROLE_SENDER): a draft → 201 `DeliveryDetail`; §5 rules on the fields checked. */
export async function createDeliveryDraft(client: ApiClient, body: CreateDeliveryBody, signal?: AbortSignal): Promise<DeliveryDetail> {
  return call(client, E.create, { body }, { signal });
}

/** PATCH /deliveries/{deliveryUuid} (the draft's sender): changes some fields of a draft. */
export async function updateDeliveryDraft(client: ApiClient, deliveryUuid: string, body: UpdateDeliveryBody, signal?: AbortSignal): Promise<DeliveryDetail> {
  return call(client, E.update, { params: { deliveryUuid }, body }, { signal });
}

/**
 * GET /deliveries/{deliveryUuid} as the draft's sender: the files already announced (to resume
 * after a reload). The inbox/sent screens read deliveries through delivery-read.ts.
 */
export async function getDeliveryDraft(client: ApiClient, deliveryUuid: string, signal?: AbortSignal): Promise<DeliveryDetail> {
  return call(client, E.one, { params: { deliveryUuid } }, { signal });
}

/** POST /deliveries/{deliveryUuid}/files: announce a file → `fileId`, `partSize`, `partCount`; name, type, size and quotas are checked here. */
export async function announceDeliveryFile(client: ApiClient, deliveryUuid: string, body: AddFileBody, signal?: AbortSignal): Promise<DeliveryUploadFile> {
  return call(client, E.addFile, { params: { deliveryUuid }, body }, { signal });
}

/** DELETE /deliveries/{deliveryUuid}/files/{fileId}: drop a file from a draft (204). */
export async function deleteDeliveryFile(client: ApiClient, deliveryUuid: string, fileId: string, signal?: AbortSignal): Promise<void> {
  await call(client, E.removeFile, { params: { deliveryUuid, fileId } }, { signal });
}

/**
 * PUT …/parts/{index}: one part as `application/octet-stream` with its SHA-256 (hex) in
 * `x-content-sha256`. Idempotent: the same index and hash again is answered 200 without re-reading.
 * Pass the body as a Blob (DESIGN §4: ~8× faster than a Uint8Array in Chromium).
 */
export async function putDeliveryFilePart(
  client: ApiClient,
  target: { deliveryUuid: string; fileId: string; index: number },
  body: Blob,
  sha256Hex: string,
  signal?: AbortSignal,
): Promise<Part> {
  return call(client, E.putPart, { params: target }, { rawBody: body, contentType: 'application/octet-stream', headers: { [CONTENT_SHA256_HEADER]: sha256Hex }, signal });
}

/** GET …/parts: the parts received so far (index, size, SHA-256), to resume. */
export async function listDeliveryFileParts(client: ApiClient, deliveryUuid: string, fileId: string, signal?: AbortSignal): Promise<PartsResponse> {
  return call(client, E.parts, { params: { deliveryUuid, fileId } }, { signal });
}

/** PUT …/own-key (levels 3/4): the file key wrapped to the sender's own key, kept on the draft for a resume. */
export async function putDeliveryFileOwnKey(client: ApiClient, deliveryUuid: string, fileId: string, body: OwnFileKey, signal?: AbortSignal): Promise<void> {
  await call(client, E.putOwnKey, { params: { deliveryUuid, fileId }, body }, { signal });
}

/** POST …/commit: every part is in → the file is complete (only committed files are ever downloadable). */
export async function commitDeliveryFile(client: ApiClient, deliveryUuid: string, fileId: string, signal?: AbortSignal): Promise<DeliveryUploadFile> {
  return call(client, E.commitFile, { params: { deliveryUuid, fileId } }, { signal });
}

/** POST /deliveries/{deliveryUuid}/send: every §5 rule checked again, status `sent`, recipients mailed. */
export async function sendDeliveryDraft(client: ApiClient, deliveryUuid: string, signal?: AbortSignal): Promise<DeliveryDetail> {
  return call(client, E.send, { params: { deliveryUuid } }, { signal });
}

/** POST /deliveries/recipient-status (ROLE_SENDER): registered / has a passphrase, for the chip warnings (SPEC §5). */
export async function getRecipientStatus(client: ApiClient, emails: readonly string[], signal?: AbortSignal, options: { withKeys?: boolean } = {}): Promise<RecipientStatusResponse> {
  return call(client, E.recipientStatus, { body: { emails: [...emails], ...(options.withKeys ? { withKeys: true } : {}) } }, { signal });
}
