import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import { encryptsMessage, opensByLink } from '@shared/contract/security-levels';
import {
  DELIVERY_SETTING_KEYS,
  DELIVERY_WEB_LINKS,
  e2ePartLayout,
  e2ePlaintextSize,
  partBounds,
  partCountOf,
  type ActivityEntry,
  type DeliveryDetail,
  type DeliveryFile,
  type DeliveryPage,
  type DeliveryRecipient,
  type DeliverySummary,
  type DeliveryUploadFile,
  LIST_TOTAL_CAP,
  SEARCH_TOTAL_CAP,
  type Part,
  type PartsResponse,
  type SecurityLevel,
  type TimeState,
} from '@shared/contract/deliveries';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import { authenticationRequired, badRequest, conflict, HttpError, notFound } from '../core/http-error';
import type { Database } from '../db/schema';
import { ENCRYPTED_SUBJECT_PLACEHOLDER } from '../mail/templates';
import { BlobIntegrityError, type BlobRangeReader, type ByteRange } from '../storage/blob-store';
import { externalLinkFor } from '../external/external-service';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import type { UserRow } from '../users/users-repository';
import { dropDescriptors, e2eAccessOf, e2eNotify, e2eSendCheck, ownKeyOf, releasePendingOf } from './e2e';
import { checkSenderMayReach, senderSendConfig } from './senders';
import { assertShareProof } from './share-proof';
import { queueDeliveryScan, refuseUnlessScanned, reviewAllowsAccess, scanApplies } from './review';
import { checkAnotherFile, checkContent, checkFile, checkMessage, checkNotBanned, isE2eLevel, parseList, resolveSecurityLevel, resolveValidityDays } from './rules';
import type { DeliveriesTable, DeliveryFilesTable, DeliveryRecipientsTable } from './tables';

/** A delivery within this much of its end is "expiring soon" (SPEC §4): a weekend plus a working day to react. */
export const EXPIRING_SOON_MS = 3 * 86_400_000;
/** Link tokens: 32 random bytes (256 bits, DESIGN §2 asks ≥ 128), base64url. */
const TOKEN_BYTES = 32;

export type DeliveryRow = Selectable<DeliveriesTable>;
export type RecipientRow = Selectable<DeliveryRecipientsTable>;
export type FileRow = Selectable<DeliveryFilesTable>;

export type Viewer =
  | { kind: 'sender'; delivery: DeliveryRow }
  | { kind: 'recipient'; delivery: DeliveryRow; recipient: RecipientRow }
  | { kind: 'token'; delivery: DeliveryRow; recipient: RecipientRow };

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const newToken = () => randomBytes(TOKEN_BYTES).toString('base64url');
const partKey = (deliveryUuid: string, fileUuid: string, index: number) => `deliveries/${deliveryUuid}/${fileUuid}/${index}`;
const deliveryPrefix = (deliveryUuid: string) => `deliveries/${deliveryUuid}`;
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
export const displayName = (u: Pick<UserRow, 'first_name' | 'last_name' | 'email'>) => `${u.first_name} ${u.last_name}`.trim() || u.email;
/** LIKE pattern for a case-insensitive "contains", wildcards in the needle escaped. */
const containsPattern = (q: string) => `%${q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function timeStateOf(delivery: Pick<DeliveryRow, 'expires_at'>, now = Date.now()): TimeState {
  if (delivery.expires_at === null) return 'permanent';
  if (delivery.expires_at <= now) return 'expired';
  return delivery.expires_at - now <= EXPIRING_SOON_MS ? 'expiringSoon' : 'valid';
}

export async function activity(
  db: Kysely<Database>,
  deliveryId: number,
  kind: ActivityEntry['kind'],
  options: { actor?: string | null; recipientId?: number | null; detail?: string | null } = {},
): Promise<void> {
  await db
    .insertInto('delivery_activity')
    .values({ delivery_id: deliveryId, kind, actor: options.actor ?? null, recipient_id: options.recipientId ?? null, detail: options.detail ?? null, created_at: Date.now() })
    .execute();
}

export async function findDelivery(db: Kysely<Database>, deliveryUuid: string): Promise<DeliveryRow | undefined> {
  if (!isUuid(deliveryUuid)) return undefined;
  return db.selectFrom('deliveries').selectAll().where('uuid', '=', deliveryUuid).executeTakeFirst();
}

/**
 * Who is looking at a delivery, or the refusal: a valid level-1 token without the email prompt's
 * proof → 403 `emailConfirmationRequired`; anonymous without a token, or anonymous
 * on a level-2 delivery → 401 (sign in); a wrong or foreign token on a level-1 delivery,
 * another user, a draft of someone else → 404, so nobody learns that a delivery exists.
 */
export async function resolveViewer(
  db: Kysely<Database>,
  user: UserRow | null,
  deliveryUuid: string,
  token: string | undefined,
  proof?: string | undefined,
): Promise<Viewer> {
  if (!user && !token) throw authenticationRequired();
  const delivery = await findDelivery(db, deliveryUuid);
  if (!delivery || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (user && delivery.sender_id === user.id) return { kind: 'sender', delivery };
  if (delivery.status !== 'sent') throw notFound('Delivery not found');
  if (user) {
    const recipient = await db
      .selectFrom('delivery_recipients')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .where('email', '=', user.email.toLowerCase())
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (recipient) return { kind: 'recipient', delivery, recipient };
  }
  if (token && opensByLink(delivery.security_level)) {
    const recipient = await db
      .selectFrom('delivery_recipients')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (recipient) {
      // The token proves the link, the email prompt's proof the address (share-proof.ts).
      await assertShareProof(db, recipient.id, proof);
      return { kind: 'token', delivery, recipient };
    }
    // A wrong or foreign token on a link delivery: the link is invalid, signing in would not help.
    if (!user) throw notFound('Delivery not found');
  }
  // Level 2 without a session: sign in first.
  if (!user) throw authenticationRequired();
  throw notFound('Delivery not found');
}

/** The caller's own draft (sender only): anything else is 404; a sent one is 409. */
export async function ownDraft(db: Kysely<Database>, user: UserRow, deliveryUuid: string): Promise<DeliveryRow> {
  const delivery = await findDelivery(db, deliveryUuid);
  if (!delivery || delivery.sender_id !== user.id || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (delivery.status !== 'draft') throw conflict('The delivery was sent already; it cannot change');
  return delivery;
}

export async function fileOf(db: Kysely<Database>, delivery: DeliveryRow, fileId: string): Promise<FileRow> {
  if (!isUuid(fileId)) throw notFound('File not found');
  const file = await db.selectFrom('delivery_files').selectAll().where('uuid', '=', fileId).where('delivery_id', '=', delivery.id).executeTakeFirst();
  if (!file) throw notFound('File not found');
  return file;
}

const toWireFile = (f: FileRow): DeliveryFile => ({
  fileId: f.uuid,
  name: f.name,
  size: Number(f.size),
  mimeType: f.mime_type,
  status: f.status as DeliveryFile['status'],
  encrypted: f.encrypted === 1,
  scanState: f.scan_state as DeliveryFile['scanState'],
});
const toUploadFile = (f: FileRow): DeliveryUploadFile => ({
  ...toWireFile(f),
  partSize: f.part_size,
  partCount: f.part_count,
  ...(f.leading_bytes ? { leadingBytes: f.leading_bytes } : {}),
});

const boundsOf = (file: Pick<FileRow, 'size' | 'part_size' | 'leading_bytes'>, index: number) =>
  partBounds({ size: Number(file.size), partSize: file.part_size, leadingBytes: file.leading_bytes }, index);

/** Size of part `index` of a file: every part but the last is full (part 0 of an E2E file also holds the header). */
export function expectedPartSize(file: Pick<FileRow, 'size' | 'part_size' | 'leading_bytes'>, index: number): number {
  const { start, end } = boundsOf(file, index);
  return end - start;
}

// ---------------------------------------------------------------------------------------
// Create, files, parts, commit, send
// ---------------------------------------------------------------------------------------

export interface CreateInput {
  recipients: string[];
  additionalRecipients: string[];
  subject: string;
  body: string;
  validityDays?: number | null | undefined;
  securityLevel?: SecurityLevel | undefined;
  language?: Language | undefined;
}

/** Banned recipients, then who this sender may reach (senders.ts: reply only, licence, invitations). */
async function checkAddresses(app: FastifyInstance, sender: UserRow, addresses: readonly string[]): Promise<void> {
  checkNotBanned(addresses, parseList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients)));
  await checkSenderMayReach(app, sender, addresses);
}

function recipientRows(deliveryId: number, recipients: string[], additional: string[], now: number) {
  return [...recipients.map((email) => ({ email, kind: 'recipient' })), ...additional.map((email) => ({ email, kind: 'additional' }))].map((r) => ({
    uuid: randomUUID(),
    delivery_id: deliveryId,
    email: r.email,
    kind: r.kind,
    token_hash: null,
    notified_at: null,
    downloaded_at: null,
    decrypted_at: null,
    removed_at: null,
    created_at: now,
  }));
}

export async function createDraft(app: FastifyInstance, sender: UserRow, input: CreateInput): Promise<DeliveryRow> {
  const config = await senderSendConfig(app, sender);
  const level = resolveSecurityLevel(input.securityLevel, config);
  const { recipients, additional } = checkMessage(input, encryptsMessage(level));
  await checkAddresses(app, sender, [...recipients, ...additional]);
  const validityDays = resolveValidityDays(input.validityDays, config);
  const now = Date.now();
  return app.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('deliveries')
      .values({
        uuid: randomUUID(),
        sender_id: sender.id,
        status: 'draft',
        subject: input.subject.trim(),
        body: input.body,
        security_level: level,
        language: input.language ?? reduceLanguage(sender.language),
        validity_days: validityDays,
        expires_at: null,
        review_state: 'notReviewed',
        manifest: null,
        created_at: now,
        sent_at: null,
        deleted_at: null,
        purged_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('delivery_recipients').values(recipientRows(inserted.id, recipients, additional, now)).execute();
    await activity(trx, inserted.id, 'created', { actor: sender.email });
    return (await trx.selectFrom('deliveries').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow()) as DeliveryRow;
  });
}

/** Changes a draft: the given fields over the stored ones, checked as a whole like a new draft. */
export async function updateDraft(app: FastifyInstance, sender: UserRow, deliveryUuid: string, input: Partial<CreateInput>): Promise<DeliveryRow> {
  const draft = await ownDraft(app.db, sender, deliveryUuid);
  const config = await senderSendConfig(app, sender);
  const stored = await app.db.selectFrom('delivery_recipients').select(['email', 'kind']).where('delivery_id', '=', draft.id).orderBy('id').execute();
  const merged = {
    recipients: input.recipients ?? stored.filter((r) => r.kind === 'recipient').map((r) => r.email),
    additionalRecipients: input.additionalRecipients ?? stored.filter((r) => r.kind === 'additional').map((r) => r.email),
    subject: input.subject ?? draft.subject,
    body: input.body ?? draft.body,
  };
  const level = resolveSecurityLevel(input.securityLevel ?? draft.security_level, config);
  const { recipients, additional } = checkMessage(merged, encryptsMessage(level));
  await checkAddresses(app, sender, [...recipients, ...additional]);
  if (isE2eLevel(level) !== isE2eLevel(draft.security_level)) {
    // Files already announced are plain or ciphertext; they cannot change sides.
    const files = await app.db.selectFrom('delivery_files').select('id').where('delivery_id', '=', draft.id).executeTakeFirst();
    if (files) throw badRequest('Remove the attached files before switching between encrypted and plain levels', { field: 'securityLevel', reason: 'filesAttached' });
  }
  const validityDays = resolveValidityDays(input.validityDays !== undefined ? input.validityDays : (draft.validity_days ?? undefined), config);
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('deliveries')
      .set({
        subject: merged.subject.trim(),
        body: merged.body,
        security_level: level,
        validity_days: validityDays,
        language: input.language ?? draft.language,
      })
      .where('id', '=', draft.id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('The delivery was sent already; it cannot change');
    if (input.recipients !== undefined || input.additionalRecipients !== undefined) {
      await trx.deleteFrom('delivery_recipients').where('delivery_id', '=', draft.id).execute();
      await trx.insertInto('delivery_recipients').values(recipientRows(draft.id, recipients, additional, now)).execute();
    }
  });
  return (await findDelivery(app.db, draft.uuid))!;
}

/** Bytes the store may still take: the global quota (if set) and the disk, minus what announced uploads still need. */
async function spaceAvailable(app: FastifyInstance): Promise<number> {
  const quota = Number(await app.settings.get<number>(DELIVERY_SETTING_KEYS.globalQuota));
  const stored = await app.db
    .selectFrom('delivery_files')
    .innerJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_files.size'), sql<number>`0`).as('total'))
    .where('deliveries.status', '!=', 'deleted')
    .where('deliveries.purged_at', 'is', null)
    .executeTakeFirstOrThrow();
  const used = Number(stored.total);
  let available = quota > 0 ? quota - used : Number.MAX_SAFE_INTEGER;
  const free = await app.blobs.freeSpace();
  if (free !== null) {
    // Announced but not yet written bytes are promised already.
    const pending = await app.db
      .selectFrom('delivery_files')
      .innerJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_files.size'), sql<number>`0`).as('total'))
      .where('deliveries.status', '!=', 'deleted')
      .where('delivery_files.status', '=', 'uploading')
      .executeTakeFirstOrThrow();
    const written = await app.db
      .selectFrom('delivery_file_parts')
      .innerJoin('delivery_files', 'delivery_files.id', 'delivery_file_parts.file_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_file_parts.size'), sql<number>`0`).as('total'))
      .where('delivery_files.status', '=', 'uploading')
      .executeTakeFirstOrThrow();
    available = Math.min(available, free - Math.max(0, Number(pending.total) - Number(written.total)));
  }
  return Math.max(0, available);
}

export interface AddFileInput {
  name: string;
  size: number;
  mimeType: string;
  encryption?: { recordSize: number; headerSha256: string } | undefined;
}

export async function addFile(app: FastifyInstance, sender: UserRow, deliveryUuid: string, input: AddFileInput) {
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
    throw new HttpError(413, 'MaxUploadSizeExceededException', 'The attachments exceed the size allowed for your account', {
      maxUploadSize,
      currentSize,
      requestedSize: currentSize + input.size,
    });
  }
  const available = await spaceAvailable(app);
  if (input.size > available) {
    throw new HttpError(507, 'GlobalQuotaReachedException', 'The server has no space left for this file', {
      spaceAvailable: available,
      spaceRequired: input.size,
    });
  }
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

export async function removeFile(app: FastifyInstance, sender: UserRow, deliveryUuid: string, fileId: string): Promise<void> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  const file = await fileOf(app.db, delivery, fileId);
  await app.db.deleteFrom('delivery_files').where('id', '=', file.id).execute();
  await dropDescriptors(app, delivery.uuid, file.uuid);
  await app.blobs.deletePrefix(`${deliveryPrefix(delivery.uuid)}/${file.uuid}`);
}

export async function listParts(app: FastifyInstance, sender: UserRow, deliveryUuid: string, fileId: string): Promise<PartsResponse> {
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
export async function putPart(app: FastifyInstance, sender: UserRow, input: PutPartInput): Promise<Part> {
  const delivery = await ownDraft(app.db, sender, input.deliveryUuid);
  const file = await fileOf(app.db, delivery, input.fileId);
  if (file.status !== 'uploading') throw conflict('The file is committed; its parts cannot change');
  if (input.index >= file.part_count) {
    throw badRequest('No such part', { field: 'index', reason: 'partIndexOutOfRange', partCount: file.part_count });
  }
  const sha256 = input.sha256?.trim().toLowerCase();
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256)) {
    throw badRequest('Header x-content-sha256 with the part’s SHA-256 (hex) is required', { field: 'x-content-sha256', reason: 'missingSha256' });
  }
  const size = expectedPartSize(file, input.index);
  const stored = await app.db
    .selectFrom('delivery_file_parts')
    .select(['size', 'sha256'])
    .where('file_id', '=', file.id)
    .where('part_index', '=', input.index)
    .executeTakeFirst();
  if (stored && stored.sha256 === sha256 && stored.size === size) return { index: input.index, size, sha256 };
  if (input.contentLength !== undefined && input.contentLength !== size) {
    throw badRequest(`Part ${input.index} must be exactly ${size} bytes`, { reason: 'partSizeMismatch', expectedSize: size, actualSize: input.contentLength });
  }
  try {
    await app.blobs.put(partKey(delivery.uuid, file.uuid, input.index), input.body, { expectedSha256: sha256, expectedSize: size });
  } catch (error) {
    if (error instanceof BlobIntegrityError) {
      if (error.reason === 'sha256') {
        throw badRequest('The part does not match its SHA-256', { reason: 'sha256Mismatch', expected: sha256, actual: error.actual.sha256 ?? null });
      }
      throw badRequest(`Part ${input.index} must be exactly ${size} bytes`, { reason: 'partSizeMismatch', expectedSize: size });
    }
    throw error;
  }
  const now = Date.now();
  await app.db
    .insertInto('delivery_file_parts')
    .values({ file_id: file.id, part_index: input.index, size, sha256, created_at: now })
    .onConflict((oc) => oc.columns(['file_id', 'part_index']).doUpdateSet({ size, sha256, created_at: now }))
    .execute();
  return { index: input.index, size, sha256 };
}

export async function commitFile(app: FastifyInstance, sender: UserRow, deliveryUuid: string, fileId: string): Promise<DeliveryUploadFile> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  const file = await fileOf(app.db, delivery, fileId);
  if (file.status === 'committed') return toUploadFile(file);
  const parts = await app.db.selectFrom('delivery_file_parts').select(['part_index', 'size']).where('file_id', '=', file.id).execute();
  const have = new Map(parts.map((p) => [p.part_index, p.size]));
  const missing: number[] = [];
  for (let i = 0; i < file.part_count; i++) {
    if (have.get(i) !== expectedPartSize(file, i)) missing.push(i);
  }
  const total = parts.reduce((sum, p) => sum + p.size, 0);
  if (missing.length > 0 || total !== Number(file.size)) {
    throw badRequest('The upload is incomplete', { reason: 'uploadIncomplete', missing: missing.slice(0, 100), receivedSize: total, size: Number(file.size) });
  }
  for (let i = 0; i < file.part_count; i++) {
    if (!(await app.blobs.exists(partKey(delivery.uuid, file.uuid, i)))) {
      throw badRequest('The upload is incomplete', { reason: 'uploadIncomplete', missing: [i] });
    }
  }
  const now = Date.now();
  await app.db.updateTable('delivery_files').set({ status: 'committed', committed_at: now }).where('id', '=', file.id).where('status', '=', 'uploading').execute();
  await activity(app.db, delivery.id, 'fileCommitted', { actor: sender.email, detail: file.name });
  return toUploadFile({ ...file, status: 'committed', committed_at: now });
}

/** Checks every §5 rule again (settings may have changed since the draft), marks the delivery sent and mails the recipients. */
export async function sendDelivery(app: FastifyInstance, sender: UserRow, deliveryUuid: string, log: FastifyBaseLogger): Promise<DeliveryRow> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  const config = await senderSendConfig(app, sender);
  const recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute();
  checkMessage(
    {
      recipients: recipients.filter((r) => r.kind === 'recipient').map((r) => r.email),
      additionalRecipients: recipients.filter((r) => r.kind === 'additional').map((r) => r.email),
      subject: delivery.subject,
      body: delivery.body,
    },
    encryptsMessage(delivery.security_level),
  );
  await checkAddresses(app, sender, recipients.map((r) => r.email));
  resolveSecurityLevel(delivery.security_level, config);
  const validityDays = resolveValidityDays(delivery.validity_days ?? (config.deliveryCleanupEnabled ? undefined : null), config);
  const files = await app.db.selectFrom('delivery_files').select(['name', 'status']).where('delivery_id', '=', delivery.id).execute();
  const uploading = files.filter((f) => f.status !== 'committed');
  if (uploading.length > 0) {
    throw badRequest('Some files are not uploaded completely', { reason: 'uploadIncomplete', files: uploading.map((f) => f.name) });
  }
  // Level 4: the message is inside the encrypted manifest, which e2eSendCheck requires.
  checkContent(files.length, delivery.body, encryptsMessage(delivery.security_level));
  const pendingRelease = isE2eLevel(delivery.security_level) ? await e2eSendCheck(app, sender, delivery, recipients) : new Set<number>();

  const now = Date.now();
  const tokens = new Map<number, string>();
  // With a scanner, level 1/2 attachments wait for a clean scan: no links, no mails until then (virus-scan.ts).
  const scan = files.length > 0 && scanApplies(app, delivery);
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('deliveries')
      .set({
        status: 'sent',
        sent_at: now,
        validity_days: validityDays,
        expires_at: validityDays === null ? null : now + validityDays * 86_400_000,
        ...(scan ? { review_state: 'inProgress' } : {}),
      })
      .where('id', '=', delivery.id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('The delivery was sent already');
    // Into every recipient's inbox (the inbox walks this column, migration 0015).
    await trx.updateTable('delivery_recipients').set({ listed_at: now }).where('delivery_id', '=', delivery.id).where('removed_at', 'is', null).execute();
    if (scan) {
      await queueDeliveryScan(trx, delivery.id);
    } else if (opensByLink(delivery.security_level)) {
      for (const r of recipients) {
        const token = newToken();
        tokens.set(r.id, token);
        await trx.updateTable('delivery_recipients').set({ token_hash: hashToken(token) }).where('id', '=', r.id).execute();
      }
    }
    await activity(trx, delivery.id, 'sent', { actor: sender.email });
  });
  const sent = (await findDelivery(app.db, delivery.uuid))!;
  // A scanned delivery notifies once its scan is clean (review.ts); E2E levels are never scanned.
  if (scan) {
    app.jobs.kick();
    return sent;
  }
  const withAccess = recipients.filter((r) => !pendingRelease.has(r.id));
  await notifyRecipients(app, sender, sent, withAccess, tokens, files.length, log);
  // Levels 3/4: recipients without a key are invited (passphrase first, then the sender's release).
  await e2eNotify(app, sender, sent, recipients.filter((r) => pendingRelease.has(r.id)), log);
  return sent;
}

export async function notifyRecipients(
  app: FastifyInstance,
  sender: UserRow,
  delivery: DeliveryRow,
  recipients: RecipientRow[],
  tokens: Map<number, string>,
  fileCount: number,
  log: FastifyBaseLogger,
): Promise<string[]> {
  const registered = await usersByEmail(app.db, recipients.map((r) => r.email));
  const base = app.config.publicUrl;
  const expiresOn = delivery.expires_at === null ? null : new Date(delivery.expires_at).toISOString().slice(0, 10);
  const results = await Promise.allSettled(
    recipients.map(async (r) => {
      const user = registered.get(r.email);
      const language = user ? reduceLanguage(user.language) : reduceLanguage(delivery.language);
      const token = tokens.get(r.id);
      // Link holders (level 1, unregistered recipients of higher levels) start at the email prompt.
      // An account whose address never proved itself is no owner yet: the mail carries the signup link.
      const external = await externalLinkFor(app, delivery, r, { registered: Boolean(user?.email_verified), language, downloadToken: token });
      const link = `${base}${external ?? DELIVERY_WEB_LINKS.inbox(delivery.uuid)}`;
      await app.mailer.send({
        to: r.email,
        template: 'newDelivery',
        language,
        data: {
          senderName: displayName(sender),
          senderEmail: sender.email,
          subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
          link,
          level: delivery.security_level,
          signup: !opensByLink(delivery.security_level) && external !== null,
          fileCount,
          expiresOn,
        },
      });
      return r;
    }),
  );
  const notified: string[] = [];
  const now = Date.now();
  for (const [i, result] of results.entries()) {
    const r = recipients[i]!;
    if (result.status === 'fulfilled') {
      notified.push(r.email);
      await app.db.updateTable('delivery_recipients').set({ notified_at: now }).where('id', '=', r.id).execute();
      await activity(app.db, delivery.id, 'notified', { actor: r.email, recipientId: r.id });
    } else {
      log.error({ err: result.reason, deliveryUuid: delivery.uuid }, 'delivery notification failed');
      await activity(app.db, delivery.id, 'notificationFailed', { actor: r.email, recipientId: r.id });
    }
  }
  return notified;
}

/** Mails the recipients again (or the one named). Level 1 links get a fresh token: only hashes are stored. */
export async function resendNotification(app: FastifyInstance, sender: UserRow, deliveryUuid: string, shareUuid: string | undefined, log: FastifyBaseLogger) {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.sender_id !== sender.id || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (delivery.status !== 'sent') throw conflict('Only a sent delivery can be notified again');
  if (timeStateOf(delivery) === 'expired') throw conflict('The delivery has expired');
  if (!reviewAllowsAccess(delivery.review_state)) {
    throw new HttpError(409, 'ConflictException', 'The attachments are being checked or are blocked; nobody is notified', { reviewState: delivery.review_state });
  }
  let recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute();
  if (shareUuid !== undefined) {
    recipients = recipients.filter((r) => r.uuid === shareUuid);
    if (recipients.length === 0) throw notFound('Recipient not found');
  }
  return { notified: await notifyWithFreshTokens(app, sender, delivery, recipients, log) };
}

/** Mails the given recipients; level 1 links get fresh tokens (only hashes are stored, so older links stop working). */
export async function notifyWithFreshTokens(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipients: RecipientRow[], log: FastifyBaseLogger): Promise<string[]> {
  const tokens = new Map<number, string>();
  if (opensByLink(delivery.security_level)) {
    for (const r of recipients) {
      const token = newToken();
      tokens.set(r.id, token);
      await app.db.updateTable('delivery_recipients').set({ token_hash: hashToken(token) }).where('id', '=', r.id).execute();
    }
  }
  const fileCount = await app.db
    .selectFrom('delivery_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('delivery_id', '=', delivery.id)
    .executeTakeFirstOrThrow();
  return notifyRecipients(app, sender, delivery, recipients, tokens, Number(fileCount.n), log);
}

// ---------------------------------------------------------------------------------------
// Reading: one delivery, lists, download, activity; delete
// ---------------------------------------------------------------------------------------

export async function usersByEmail(db: Kysely<Database>, emails: string[]): Promise<Map<string, UserRow>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, 'in', emails)
    .execute();
  return new Map(rows.map((u) => [u.email.toLowerCase(), u]));
}

async function fileTotals(db: Kysely<Database>, deliveryIds: number[], committedOnly: boolean) {
  const totals = new Map<number, { count: number; size: number }>();
  if (deliveryIds.length === 0) return totals;
  let query = db
    .selectFrom('delivery_files')
    .select((eb) => ['delivery_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
    .where('delivery_id', 'in', deliveryIds)
    .groupBy('delivery_id');
  if (committedOnly) query = query.where('status', '=', 'committed');
  for (const row of await query.execute()) totals.set(row.delivery_id, { count: Number(row.n), size: Number(row.bytes) });
  return totals;
}

function summaryOf(delivery: DeliveryRow, sender: Pick<UserRow, 'first_name' | 'last_name' | 'email'>, totals: { count: number; size: number } | undefined, downloaded: boolean): DeliverySummary {
  return {
    deliveryUuid: delivery.uuid,
    status: delivery.status as DeliverySummary['status'],
    sender: { email: sender.email, name: displayName(sender) },
    subject: delivery.subject,
    securityLevel: delivery.security_level,
    createdAt: delivery.created_at,
    sentAt: delivery.sent_at,
    expiresAt: delivery.expires_at,
    validityDays: delivery.validity_days,
    timeState: delivery.status === 'draft' ? (delivery.validity_days === null ? 'permanent' : 'valid') : timeStateOf(delivery),
    reviewState: delivery.review_state as DeliverySummary['reviewState'],
    attachmentsAvailable: reviewAllowsAccess(delivery.review_state) && delivery.purged_at === null && (delivery.status === 'draft' || timeStateOf(delivery) !== 'expired'),
    fileCount: totals?.count ?? 0,
    totalSize: totals?.size ?? 0,
    downloaded,
  };
}

/**
 * Unregistered recipients whose signup needs an SMS code (`kuvert.delivery.signup.requireSms`)
 * and for whom the sender gave no phone number yet (the Sent alert of SPEC §2).
 */
async function phoneNumbersMissing(app: FastifyInstance, unregistered: readonly RecipientRow[]): Promise<Set<number>> {
  if (unregistered.length === 0 || (await app.settings.get<boolean>(EXTERNAL_SETTING_KEYS.signupRequiresSms)) !== true) return new Set();
  const ids = unregistered.map((r) => r.id);
  const withPhone = await app.db.selectFrom('delivery_signups').select('recipient_id').where('recipient_id', 'in', ids).where('phone_number', 'is not', null).execute();
  const have = new Set(withPhone.map((row) => row.recipient_id));
  return new Set(ids.filter((id) => !have.has(id)));
}

export async function deliveryDetail(app: FastifyInstance, viewer: Viewer): Promise<DeliveryDetail> {
  const { delivery } = viewer;
  const db = app.db;
  const sender = (await db.selectFrom('users').selectAll().where('id', '=', delivery.sender_id).executeTakeFirstOrThrow()) as UserRow;
  let filesQuery = db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery.id).orderBy('id');
  if (viewer.kind !== 'sender') filesQuery = filesQuery.where('status', '=', 'committed');
  const files = (await filesQuery.execute()) as FileRow[];
  const all = (await db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).orderBy('id').execute()) as RecipientRow[];
  const visible = viewer.kind === 'sender' ? all : all.filter((r) => r.kind === 'recipient' || r.id === viewer.recipient.id);
  const registered = await usersByEmail(db, visible.map((r) => r.email));
  const recipients: DeliveryRecipient[] = visible.map((r) => {
    // Other recipients' progress is the sender's business only.
    const own = viewer.kind === 'sender' || r.id === (viewer as { recipient: RecipientRow }).recipient.id;
    return {
      shareUuid: own ? r.uuid : '',
      email: r.email,
      kind: r.kind as DeliveryRecipient['kind'],
      registered: registered.has(r.email),
      downloadedAt: own ? r.downloaded_at : null,
      decryptedAt: own ? r.decrypted_at : null,
      notifiedAt: own ? r.notified_at : null,
    };
  });
  const downloaded = viewer.kind === 'sender' ? all.length > 0 && all.every((r) => r.downloaded_at !== null) : viewer.recipient.downloaded_at !== null;
  const totals = { count: files.length, size: files.reduce((s, f) => s + Number(f.size), 0) };
  const e2e = isE2eLevel(delivery.security_level);
  if (e2e && viewer.kind === 'sender' && delivery.status === 'sent') {
    const pending = await releasePendingOf(app, delivery, visible);
    for (const [i, r] of visible.entries()) recipients[i]!.releasePending = pending.has(r.id);
  }
  // The sender's browser checks its pins by user id (verified badges, issue 12 §4).
  if (e2e && viewer.kind === 'sender') for (const [i, r] of visible.entries()) if (registered.has(r.email)) recipients[i]!.userUuid = registered.get(r.email)!.uuid;
  if (viewer.kind === 'sender') {
    const missing = await phoneNumbersMissing(app, visible.filter((r) => !registered.has(r.email)));
    for (const [i, r] of visible.entries()) recipients[i]!.phoneNumberMissing = missing.has(r.id);
  }
  return {
    ...summaryOf(delivery, sender, totals, downloaded),
    body: delivery.body,
    language: reduceLanguage(delivery.language),
    files: files.map(toWireFile),
    recipients,
    viewer: viewer.kind,
    ...(e2e && viewer.kind === 'recipient' ? { e2eAccess: await e2eAccessOf(app, delivery, viewer.recipient) } : {}),
  };
}

type ListQuery = { page: number; pageSize: number; cursor?: string | undefined; filter: 'all' | 'notDownloaded'; q?: string | undefined };

/** A list position: the sent time and delivery id of a row (the lists' order, newest first). */
interface ListKey {
  at: number;
  id: number;
}
const CURSOR_TEXT = /^(\d{1,16})\.(\d{1,16})$/;
/** Exported for the inbox bench, which starts deep in a list without walking there. */
export const encodeCursor = (key: ListKey) => Buffer.from(`${key.at}.${key.id}`, 'latin1').toString('base64url');
function decodeCursor(cursor: string): ListKey {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1')) : null;
  const key = { at: Number(match?.[1]), id: Number(match?.[2]) };
  if (!match || !Number.isSafeInteger(key.at) || !Number.isSafeInteger(key.id)) throw badRequest('The list cursor is not valid', { field: 'cursor' });
  return key;
}

/**
 * The shared tail of the inbox and sent lists. `counted` is the filtered rows (any shape) for
 * the total, `rows` the same rows with the list's columns; `key` names the columns of the order
 * (sent time, delivery id), which an index must serve so a page walks at most `pageSize + 1`
 * index entries after the cursor. The total stops at the cap + 1 rows: a big inbox is never
 * counted whole. File totals of the page come in one grouped query.
 */
async function pageOf<DB, TB extends keyof DB, CDB, CTB extends keyof CDB, R extends { id: number }>(
  db: Kysely<Database>,
  query: ListQuery,
  counted: SelectQueryBuilder<CDB, CTB, object>,
  rows: SelectQueryBuilder<DB, TB, R>,
  key: { at: string; id: string },
  toSummary: (row: R & DeliveryRow, totals: { count: number; size: number } | undefined) => DeliverySummary,
): Promise<DeliveryPage> {
  const at = sql.ref(key.at);
  const id = sql.ref(key.id);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const cap = query.q?.trim() ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  const capped = counted.select(sql<number>`1`.as('one')).limit(cap + 1);
  const { rows: countRows } = await sql<{ n: number | string }>`select count(*) as n from (${capped}) as c`.execute(db);
  const total = Number(countRows[0]?.n ?? 0);
  let pageQuery = rows.select([sql<number | string>`${at}`.as('k_at'), sql<number | string>`${id}`.as('k_id')]);
  // Row-value comparison: both databases turn it into a range on the (…, at, id) index.
  if (after) pageQuery = pageQuery.where(sql<boolean>`(${at}, ${id}) < (${after.at}, ${after.id})`);
  const fetched = (await pageQuery
    .orderBy(at, 'desc')
    .orderBy(id, 'desc')
    .limit(query.pageSize + 1)
    .offset(after ? 0 : (query.page - 1) * query.pageSize)
    .execute()) as unknown as Array<R & { k_at: number | string; k_id: number | string }>;
  const page = fetched.slice(0, query.pageSize);
  const last = page.at(-1);
  const nextCursor = fetched.length > query.pageSize && last ? encodeCursor({ at: Number(last.k_at), id: Number(last.k_id) }) : null;
  const totals = await fileTotals(db, page.map((r) => r.id), true);
  return {
    items: page.map((r) => toSummary(r as unknown as R & DeliveryRow, totals.get(r.id))),
    page: query.page,
    pageSize: query.pageSize,
    total: Math.min(total, cap),
    totalCapped: total > cap,
    nextCursor,
  };
}
/** Some recipient of `d` has not downloaded yet. */
const SOME_NOT_DOWNLOADED = sql<boolean>`exists (select 1 from delivery_recipients rn where rn.delivery_id = d.id and rn.downloaded_at is null)`;

export async function inbox(app: FastifyInstance, user: UserRow, query: ListQuery): Promise<DeliveryPage> {
  const db = app.db;
  // `listed_at` is set while the delivery is sent and neither deleted nor removed (migration 0015),
  // so without a search the count reads the inbox index alone.
  let own = db.selectFrom('delivery_recipients as r').where('r.email', '=', user.email.toLowerCase()).where('r.listed_at', 'is not', null);
  if (query.filter === 'notDownloaded') own = own.where('r.downloaded_at', 'is', null);
  let joined = own
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .innerJoin('users as u', 'u.id', 'd.sender_id')
    .where('d.status', '=', 'sent');
  const searching = Boolean(query.q?.trim());
  if (searching) {
    const pattern = containsPattern(query.q!);
    joined = joined.where((eb) =>
      eb.or([
        eb(sql`lower(d.subject)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.first_name || ' ' || u.last_name)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = joined.selectAll('d').select(['r.downloaded_at as r_downloaded_at', 'u.email as u_email', 'u.first_name as u_first_name', 'u.last_name as u_last_name']);
  return pageOf(db, query, searching ? joined : own, rows, { at: 'r.listed_at', id: 'r.delivery_id' }, (r, totals) =>
    summaryOf(r, { email: r.u_email, first_name: r.u_first_name, last_name: r.u_last_name }, totals, r.r_downloaded_at !== null),
  );
}

export async function sentList(app: FastifyInstance, user: UserRow, query: ListQuery): Promise<DeliveryPage> {
  const db = app.db;
  let base = db.selectFrom('deliveries as d').where('d.sender_id', '=', user.id).where('d.status', '=', 'sent');
  if (query.q?.trim()) {
    const pattern = containsPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(d.subject)`, 'like', sql`${pattern} escape '\\'`),
        eb.exists(
          eb
            .selectFrom('delivery_recipients as rq')
            .select('rq.id')
            .whereRef('rq.delivery_id', '=', 'd.id')
            .where(sql`rq.email`, 'like', sql`${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  if (query.filter === 'notDownloaded') base = base.where(SOME_NOT_DOWNLOADED);
  const rows = base.selectAll('d').select(SOME_NOT_DOWNLOADED.as('pending'));
  return pageOf(db, query, base, rows, { at: 'd.sent_at', id: 'd.id' }, (r, totals) => summaryOf(r, user, totals, !r.pending));
}

/** A committed file of a delivery the viewer may download, or the refusal. */
export async function downloadableFile(app: FastifyInstance, viewer: Viewer, fileId: string): Promise<FileRow> {
  const file = await fileOf(app.db, viewer.delivery, fileId);
  if (file.status !== 'committed') throw notFound('File not found');
  if (viewer.delivery.purged_at !== null) throw notFound('The delivery has expired');
  if (viewer.kind !== 'sender' && timeStateOf(viewer.delivery) === 'expired') throw notFound('The delivery has expired');
  // Everyone, the sender included: a file that failed or awaits its scan is never served.
  refuseUnlessScanned(viewer.delivery, file);
  return file;
}

/** The stored parts holding bytes `start..end` (inclusive) of a file, each with the range inside it. */
function* partRanges(delivery: DeliveryRow, file: FileRow, start: number, end: number): Generator<{ key: string; range: ByteRange }> {
  const lead = file.leading_bytes;
  const partOf = (offset: number) => (offset < lead ? 0 : Math.min(file.part_count - 1, Math.floor((offset - lead) / file.part_size)));
  for (let i = partOf(start), last = partOf(end); i <= last; i++) {
    const bounds = boundsOf(file, i);
    const range = { start: Math.max(start, bounds.start) - bounds.start, end: Math.min(end, bounds.end - 1) - bounds.start };
    yield { key: partKey(delivery.uuid, file.uuid, i), range };
  }
}

/** The bytes `start..end` (inclusive) of a committed file, read part by part (never buffered whole). */
export function fileStream(app: FastifyInstance, delivery: DeliveryRow, file: FileRow, start: number, end: number): Readable {
  const blobs = app.blobs;
  async function* chunks() {
    for (const { key, range } of partRanges(delivery, file, start, end)) {
      for await (const chunk of await blobs.getStream(key, range)) yield chunk as Uint8Array;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * The same bytes read into the caller's buffers (see BlobStore.openRange), or null when the blob
 * store cannot do that (the caller then sends `fileStream`).
 */
export function fileRangeReader(app: FastifyInstance, delivery: DeliveryRow, file: FileRow, start: number, end: number): BlobRangeReader | null {
  const blobs = app.blobs;
  if (!blobs.openRange) return null;
  const openRange = blobs.openRange.bind(blobs);
  const parts = partRanges(delivery, file, start, end);
  let current: BlobRangeReader | null = null;
  return {
    async read(target) {
      for (;;) {
        if (!current) {
          const next = parts.next();
          if (next.done) return 0;
          current = await openRange(next.value.key, next.value.range);
        }
        const read = await current.read(target);
        if (read > 0) return read;
        await current.close();
        current = null;
      }
    },
    async close() {
      await current?.close();
      current = null;
    },
  };
}

/** Records a recipient's first complete download (SPEC §4 per-recipient downloaded state). */
export async function markDownloaded(app: FastifyInstance, viewer: Viewer, file: FileRow): Promise<void> {
  if (viewer.kind === 'sender') return;
  const now = Date.now();
  const first = await app.db
    .updateTable('delivery_recipients')
    .set({ downloaded_at: now })
    .where('id', '=', viewer.recipient.id)
    .where('downloaded_at', 'is', null)
    .executeTakeFirst();
  await activity(app.db, viewer.delivery.id, 'downloaded', { actor: viewer.recipient.email, recipientId: viewer.recipient.id, detail: file.name });
  if (Number(first.numUpdatedRows) !== 1) return;
  // The first complete download of this recipient: a receipt to the sender.
  const sender = await app.users.findById(viewer.delivery.sender_id);
  if (!sender) return;
  await app.mailer.send({
    to: sender.email,
    template: 'downloadReceipt',
    language: reduceLanguage(sender.language),
    data: { recipient: viewer.recipient.email, subject: viewer.delivery.subject, fileName: file.name, link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.outbox}` },
  });
}

/** The sender deletes for everyone (bytes removed); a recipient removes it from their inbox. */
export async function deleteDelivery(app: FastifyInstance, user: UserRow, deliveryUuid: string): Promise<void> {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (delivery.sender_id === user.id) {
    await app.db.transaction().execute(async (trx) => {
      await trx.updateTable('deliveries').set({ status: 'deleted', deleted_at: Date.now() }).where('id', '=', delivery.id).execute();
      await trx.updateTable('delivery_recipients').set({ listed_at: null }).where('delivery_id', '=', delivery.id).execute();
    });
    await activity(app.db, delivery.id, 'deleted', { actor: user.email });
    await dropDescriptors(app, delivery.uuid);
    // After the row: a crash here leaves orphaned bytes (swept later), never a visible half-deleted delivery.
    await app.blobs.deletePrefix(deliveryPrefix(delivery.uuid));
    return;
  }
  if (delivery.status !== 'sent') throw notFound('Delivery not found');
  const updated = await app.db
    .updateTable('delivery_recipients')
    .set({ removed_at: Date.now(), listed_at: null })
    .where('delivery_id', '=', delivery.id)
    .where('email', '=', user.email.toLowerCase())
    .where('removed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw notFound('Delivery not found');
  await activity(app.db, delivery.id, 'removedFromInbox', { actor: user.email, recipientId: updated.id });
}

export async function activityLog(app: FastifyInstance, user: UserRow, deliveryUuid: string): Promise<ActivityEntry[]> {
  const viewer = await resolveViewer(app.db, user, deliveryUuid, undefined);
  let query = app.db.selectFrom('delivery_activity').selectAll().where('delivery_id', '=', viewer.delivery.id).orderBy('id');
  if (viewer.kind !== 'sender') {
    const own = viewer.recipient.id;
    query = query.where((eb) => eb.or([eb('recipient_id', 'is', null), eb('recipient_id', '=', own)])).where('kind', 'in', ['sent', 'notified', 'downloaded', 'removedFromInbox', 'released']);
  }
  return (await query.execute()).map((a) => ({ at: a.created_at, kind: a.kind as ActivityEntry['kind'], actor: a.actor, detail: a.detail }));
}
