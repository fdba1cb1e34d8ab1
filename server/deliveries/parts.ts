// Stage 1: a draft's files and their parts — announce, upload (resumable), list, remove, commit.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DELIVERY_SETTING_KEYS, e2ePartLayout, e2ePlaintextSize, partCountOf, type DeliveryUploadFile, type Part, type PartsResponse } from '@shared/contract/deliveries';
import { badRequest, conflict, HttpError, notFound } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { dropDescriptors, ownKeyOf } from './e2e-keys';
import { detectStoredType, refuseBlockedContent } from '../uploads/content-type';
import { checkComplete, checkPartRequest, writePart } from '../uploads/parts';
import { checkSpace } from '../uploads/space';
import { activity, deliveryPrefix, fileOf, findDelivery, layoutOf, ownDraft, partKey, toUploadFile, type FileRow } from './records';
import { checkAnotherFile, checkFile, isE2eLevel, parseList } from './rules';
import { commitStoredFile, deleteStoredFile } from './stored-files';

export interface AddFileInput {
  name: string;
  size: number;
  mimeType: string;
  encryption?: { recordSize: number; headerSha256: string } | undefined;
}

/**
 * SPEC §8: a public form's submission over the size limit is TransferQuotaExceededException (its
 * page shows required and allowed sizes), a submit-box ticket's SubmitQuotaReachedException; an
 * account's own delivery stays MaxUploadSizeExceededException (the caller throws that).
 */
async function refuseSubmissionOverLimit(app: RequestContext['app'], deliveryId: number, allowedSize: number, requiredSize: number): Promise<void> {
  const [form, ticket] = await Promise.all([
    app.db.selectFrom('form_submissions').select('form_id').where('delivery_id', '=', deliveryId).executeTakeFirst(),
    app.db.selectFrom('submit_tickets').select('id').where('delivery_id', '=', deliveryId).executeTakeFirst(),
  ]);
  if (form) throw new HttpError(413, 'TransferQuotaExceededException', 'The files exceed the size this form accepts', { allowedSize, requiredSize });
  if (ticket) throw new HttpError(413, 'SubmitQuotaReachedException', 'The files exceed the size this submit box accepts', { allowedSize, requiredSize });
}

/** A delivery a public form or a submit-box ticket created (not an account's own sending). */
async function isSubmission(app: RequestContext['app'], deliveryId: number): Promise<boolean> {
  const [form, ticket] = await Promise.all([
    app.db.selectFrom('form_submissions').select('form_id').where('delivery_id', '=', deliveryId).executeTakeFirst(),
    app.db.selectFrom('submit_tickets').select('id').where('delivery_id', '=', deliveryId).executeTakeFirst(),
  ]);
  return form !== undefined || ticket !== undefined;
}

export async function addFile({ app, user: sender }: RequestContext, deliveryUuid: string, input: AddFileInput) {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  const e2e = isE2eLevel(delivery.security_level);
  if (e2e !== (input.encryption !== undefined)) {
    throw badRequest(e2e ? 'Levels 3 and 4 take end-to-end encrypted files only' : 'Encrypted files need level 3 or 4', {
      field: 'encryption',
      reason: e2e ? 'encryptionRequired' : 'encryptionNotAllowed',
    });
  }
  // E2E: the §5 size rules apply to the plaintext; the ciphertext size must be one a stream can have.
  const plaintextSize = input.encryption ? e2ePlaintextSize(input.size, input.encryption.recordSize) : input.size;
  if (plaintextSize === null) {
    throw badRequest('The size does not fit the encrypted stream format', { field: 'size', reason: 'invalidCiphertextSize', size: input.size });
  }
  const all = await app.settings.getAll();
  const name = checkFile({ ...input, size: plaintextSize }, {
    blockedExtensions: parseList(all[DELIVERY_SETTING_KEYS.blockedExtensions]),
    blockedMimeTypes: parseList(all[DELIVERY_SETTING_KEYS.blockedMimeTypes]),
  });
  const existing = await app.db.selectFrom('delivery_files').select(['name', 'size']).where('delivery_id', '=', delivery.id).execute();
  checkAnotherFile(name, existing.map((f) => f.name));
  const maxUploadSize = Number(all[DELIVERY_SETTING_KEYS.maxUploadSize]);
  const currentSize = existing.reduce((sum, f) => sum + Number(f.size), 0);
  if (currentSize + input.size > maxUploadSize) {
    await refuseSubmissionOverLimit(app, delivery.id, maxUploadSize, currentSize + input.size);
    throw new HttpError(413, 'MaxUploadSizeExceededException', 'The attachments exceed the size allowed for your account', {
      maxUploadSize,
      currentSize,
      requestedSize: currentSize + input.size,
    });
  }
  // The sender's storage quota (issue 32); form and submit-box submissions have their own limits above.
  await checkSpace(app, input.size, { userId: (await isSubmission(app, delivery.id)) ? null : delivery.sender_id });
  const { partSize, leadingBytes } = input.encryption ? e2ePartLayout(input.encryption.recordSize) : { partSize: app.config.uploadPartSize, leadingBytes: 0 };
  const row = await app.db
    .insertInto('delivery_files')
    .values({
      uuid: randomUUID(),
      delivery_id: delivery.id,
      name,
      size: input.size,
      mime_type: input.mimeType.trim().toLowerCase() || 'application/octet-stream',
      part_size: partSize,
      part_count: partCountOf(input.size, partSize, leadingBytes),
      status: 'uploading',
      encrypted: input.encryption ? 1 : 0,
      header_hash: input.encryption?.headerSha256 ?? null,
      leading_bytes: leadingBytes,
      created_at: Date.now(),
      committed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUploadFile(row as FileRow);
}

export async function removeFile({ app, user: sender }: RequestContext, deliveryUuid: string, fileId: string): Promise<void> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  const file = await fileOf(app.db, delivery, fileId);
  await app.db.transaction().execute((trx) => deleteStoredFile(trx, file.id));
  await dropDescriptors(app, delivery.uuid, file.uuid);
  await app.blobs.deletePrefix(`${deliveryPrefix(delivery.uuid)}/${file.uuid}`);
}

export async function listParts({ app, user: sender }: RequestContext, deliveryUuid: string, fileId: string): Promise<PartsResponse> {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.sender_id !== sender.id || delivery.status === 'deleted') throw notFound('Delivery not found');
  const file = await fileOf(app.db, delivery, fileId);
  const parts = await app.db
    .selectFrom('delivery_file_parts')
    .select(['part_index', 'size', 'sha256'])
    .where('file_id', '=', file.id)
    .orderBy('part_index')
    .execute();
  const ownKey = file.encrypted ? await ownKeyOf(app, sender, delivery.uuid, file.uuid) : undefined;
  return {
    fileId: file.uuid,
    partSize: file.part_size,
    partCount: file.part_count,
    ...(file.leading_bytes ? { leadingBytes: file.leading_bytes } : {}),
    status: file.status as PartsResponse['status'],
    parts: parts.map((p) => ({ index: p.part_index, size: p.size, sha256: p.sha256 })),
    ...(ownKey ? { ownKey } : {}),
  };
}

export interface PutPartInput {
  deliveryUuid: string;
  fileId: string;
  index: number;
  sha256: string | undefined;
  contentLength: number | undefined;
  body: Readable;
}

/**
 * Stores one part: body streamed to a temp blob, checked against its hash and size,
 * renamed into place, then recorded. Idempotent: the same index with the same hash is a
 * no-op (the body is not read). The file stays invisible until its commit.
 */
export async function putPart({ app, user: sender }: RequestContext, input: PutPartInput): Promise<Part> {
  const delivery = await ownDraft(app.db, sender, input.deliveryUuid);
  const file = await fileOf(app.db, delivery, input.fileId);
  if (file.status !== 'uploading') throw conflict('The file is committed; its parts cannot change');
  const { sha256, size } = checkPartRequest(layoutOf(file), input.index, input.sha256);
  const stored = await app.db
    .selectFrom('delivery_file_parts')
    .select(['size', 'sha256'])
    .where('file_id', '=', file.id)
    .where('part_index', '=', input.index)
    .executeTakeFirst();
  if (stored && stored.sha256 === sha256 && stored.size === size) return { index: input.index, size, sha256 };
  await writePart(app.blobs, partKey(delivery.uuid, file.uuid, input.index), { index: input.index, sha256, size, contentLength: input.contentLength, body: input.body });
  const now = Date.now();
  await app.db
    .insertInto('delivery_file_parts')
    .values({ file_id: file.id, part_index: input.index, size, sha256, created_at: now })
    .onConflict((oc) => oc.columns(['file_id', 'part_index']).doUpdateSet({ size, sha256, created_at: now }))
    .execute();
  return { index: input.index, size, sha256 };
}

export async function commitFile({ app, user: sender }: RequestContext, deliveryUuid: string, fileId: string): Promise<DeliveryUploadFile> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  const file = await fileOf(app.db, delivery, fileId);
  if (file.status === 'committed') return toUploadFile(file);
  const parts = await app.db.selectFrom('delivery_file_parts').select(['part_index', 'size']).where('file_id', '=', file.id).execute();
  const layout = layoutOf(file);
  const keyOf = (i: number) => partKey(delivery.uuid, file.uuid, i);
  await checkComplete(app.blobs, layout, parts, keyOf);
  // The blocked types again, now from the bytes (levels 1/2; an E2E file's bytes are ciphertext).
  if (file.encrypted !== 1) {
    const all = await app.settings.getAll();
    const policy = { blockedExtensions: parseList(all[DELIVERY_SETTING_KEYS.blockedExtensions]), blockedMimeTypes: parseList(all[DELIVERY_SETTING_KEYS.blockedMimeTypes]) };
    refuseBlockedContent(file.name, await detectStoredType(app.blobs, layout, keyOf), policy);
  }
  const now = Date.now();
  await commitStoredFile(app.db, file, now);
  await activity(app.db, delivery.id, 'fileCommitted', { actor: sender.email, detail: file.name });
  return toUploadFile({ ...file, status: 'committed', committed_at: now });
}
