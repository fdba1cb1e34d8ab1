// The recipient's side of a delivery across a connection (issue 30 §2, docs/trust-networks.md
// "Deliveries"): the partner announces a delivery, uploads its parts, completes it; this server
// stores it as one of its own deliveries (sent by a submitter account for the partner's sender)
// and mails its recipients itself. A recipient's first download goes back as a signed receipt.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { reduceLanguage } from '@shared/contract/constants';
import { isE2eLevel, opensByLink, securityLevelOfNumber } from '@shared/contract/security-levels';
import { partCountOf } from '@shared/contract/deliveries';
import { TRUST_DELIVERY_ERROR, TRUST_DELIVERY_PATHS, type TrustDeliveryAnnounce, type TrustDeliveryState, type TrustReceipt } from '@shared/contract/trust-networks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../core/http-error';
import { activity, hashToken, newToken, partKey, type DeliveryRow, type RecipientRow } from '../deliveries/records';
import { releasePendingOf } from '../deliveries/e2e-keys';
import { e2eNotify } from '../deliveries/e2e-release';
import { notifyRecipients } from '../deliveries/sending';
import { E2E_MANIFEST_FILE_ID } from '@shared/contract/deliveries';
import { commitStoredFile } from '../deliveries/stored-files';
import { enqueueJob, type JobKind } from '../jobs/job-queue';
import { checkComplete, partSizeOf, writePart } from '../uploads/parts';
import { checkSpace } from '../uploads/space';
import { submitterAccount } from '../users/submitter-accounts';
import type { TrustConnectionRow } from './connections';
import { callPartner, sendSigned, verifyPartnerCall } from './partner-calls';
import { sha256OfDigest } from './signatures';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** 403 with the reason, written to the audit log (the call itself was signed by a live connection). */
async function refuseDelivery(app: FastifyInstance, connection: TrustConnectionRow, reason: string, message: string, details: Record<string, unknown> = {}): Promise<never> {
  await app.auditLog.record({ actorUserId: null, action: 'trustNetwork.deliveryRefused', subjectUserId: null, details: { reason, connectionId: connection.uuid, ...details } });
  throw new HttpError(403, TRUST_DELIVERY_ERROR, message, { reason, ...details });
}

async function inboundOf(app: FastifyInstance, connection: TrustConnectionRow, transferId: string): Promise<DeliveryRow | undefined> {
  return app.db
    .selectFrom('trust_inbound')
    .innerJoin('deliveries', 'deliveries.id', 'trust_inbound.delivery_id')
    .selectAll('deliveries')
    .where('trust_inbound.connection_id', '=', connection.id)
    .where('trust_inbound.transfer_uuid', '=', transferId)
    .executeTakeFirst();
}

/** Which parts are still missing (all of a new transfer; fewer after an interrupted one). */
async function stateOf(app: FastifyInstance, transferId: string, delivery: DeliveryRow): Promise<TrustDeliveryState> {
  if (delivery.status !== 'draft') return { type: 'deliveryState', transferId, state: 'delivered', missing: [] };
  const files = await app.db.selectFrom('delivery_files').select(['id', 'uuid', 'part_count']).where('delivery_id', '=', delivery.id).orderBy('id').execute();
  const missing: TrustDeliveryState['missing'] = [];
  for (const file of files) {
    const have = new Set((await app.db.selectFrom('delivery_file_parts').select('part_index').where('file_id', '=', file.id).execute()).map((p) => p.part_index));
    for (let index = 0; index < file.part_count; index += 1) if (!have.has(index)) missing.push({ fileId: file.uuid, index });
  }
  return { type: 'deliveryState', transferId, state: 'receiving', missing };
}

/**
 * `POST /api/2/trust/deliveries`: the sender's address must be in this connection's partner domains
 * (a partner speaks only for its own people), every recipient must have an account here (this server
 * is no relay for addresses it does not serve). A repeated announce of a transfer answers its state.
 */
export async function receiveAnnounce(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, announce: TrustDeliveryAnnounce, rawBody: string): Promise<FastifyReply> {
  const { connection } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.announce, rawBody);
  const existing = await inboundOf(app, connection, announce.transferId);
  if (existing) return sendSigned(app, reply, connection, 200, await stateOf(app, announce.transferId, existing));

  const senderEmail = announce.sender.email.toLowerCase();
  const domains = JSON.parse(connection.partner_domains) as string[];
  if (!domains.includes(domainOf(senderEmail))) {
    await refuseDelivery(app, connection, 'senderOutsideDomains', 'The sender is not in the partner domains of this connection', { transferId: announce.transferId });
  }
  const recipients = [...new Set(announce.recipients.map((email) => email.toLowerCase()))];
  const known = new Set(
    (await app.db.selectFrom('users').select(sql<string>`lower(email)`.as('email')).where(sql`lower(email)`, 'in', recipients).where('disabled', '=', 0).execute()).map((u) => u.email),
  );
  const unknown = recipients.filter((email) => !known.has(email) || domains.includes(domainOf(email)));
  if (unknown.length > 0) {
    await refuseDelivery(app, connection, 'recipientNotServed', 'This server does not serve every recipient', { transferId: announce.transferId, recipients: unknown });
  }
  for (const file of announce.files) {
    if (file.parts.length !== file.partCount || file.partCount !== partCountOf(file.size, file.partSize, file.encryption?.leadingBytes ?? 0)) {
      throw new HttpError(400, 'ValidationException', 'The parts do not fit the file size', { fileId: file.fileId });
    }
  }
  const e2e = await checkE2eAnnounce(app, connection, announce, recipients);
  await checkSpace(app, announce.files.reduce((sum, f) => sum + f.size, 0));
  const sender = await submitterAccount(app, senderEmail, reduceLanguage(announce.language));
  const now = Date.now();
  const delivery = await app.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('deliveries')
      .values({
        // Levels 3/4: the sender server's id, which every wrapped key and the signed manifest are bound to.
        uuid: e2e?.deliveryId ?? randomUUID(),
        sender_id: sender.id,
        status: 'draft',
        subject: announce.subject,
        body: announce.body,
        security_level: securityLevelOfNumber(announce.securityLevel),
        language: reduceLanguage(announce.language),
        validity_days: null,
        expires_at: announce.expiresAt,
        review_state: 'notReviewed',
        manifest: e2e?.manifest ?? null,
        created_at: now,
        sent_at: null,
        deleted_at: null,
        purged_at: null,
        quiet: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('delivery_recipients')
      .values(recipients.map((email) => ({ uuid: randomUUID(), delivery_id: inserted.id, email, kind: 'recipient', token_hash: null, notified_at: null, downloaded_at: null, decrypted_at: null, removed_at: null, created_at: now })))
      .execute();
    for (const file of announce.files) {
      await trx
        .insertInto('delivery_files')
        .values({
          uuid: file.fileId,
          delivery_id: inserted.id,
          name: file.name,
          size: file.size,
          mime_type: file.mimeType || 'application/octet-stream',
          part_size: file.partSize,
          part_count: file.partCount,
          status: 'uploading',
          encrypted: file.encryption ? 1 : 0,
          header_hash: file.encryption?.headerSha256 ?? null,
          leading_bytes: file.encryption?.leadingBytes ?? 0,
          created_at: now,
          committed_at: null,
        })
        .execute();
    }
    await trx
      .insertInto('trust_inbound')
      .values({
        connection_id: connection.id,
        transfer_uuid: announce.transferId,
        delivery_id: inserted.id,
        created_at: now,
        sender_user_uuid: e2e?.senderUserUuid ?? null,
        sender_keys: e2e ? JSON.stringify(e2e.senderKeys) : null,
      })
      .execute();
    await activity(trx, inserted.id, 'created', { actor: senderEmail, detail: connection.partner_url });
    return trx.selectFrom('deliveries').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
  });
  for (const reader of e2e?.readers ?? []) {
    const user = (await app.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', reader.email.toLowerCase()).executeTakeFirstOrThrow());
    for (const d of reader.descriptors) {
      await app.secupass.addAccessDescriptor({ recipientUserId: user.id, recipientKeyId: d.recipientKeyId, resourceKind: 'delivery', resourceId: delivery.uuid, fileId: d.fileId, wrappedKey: d.wrappedKey });
    }
  }
  return sendSigned(app, reply, connection, 200, await stateOf(app, announce.transferId, delivery));
}

async function receivingFile(app: FastifyInstance, connection: TrustConnectionRow, transferId: string, fileId: string) {
  const delivery = await inboundOf(app, connection, transferId);
  if (!delivery) await refuseDelivery(app, connection, 'unknownTransfer', 'No such transfer from this partner', { transferId });
  const file = await app.db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery!.id).where('uuid', '=', fileId).executeTakeFirst();
  if (!file) throw new HttpError(404, 'NotFoundException', 'File not found');
  return { delivery: delivery!, file };
}

/**
 * `PUT /api/2/trust/deliveries/{transferId}/files/{fileId}/parts/{index}`: one part, streamed into
 * the blob store and checked against the signed content digest while it arrives. Idempotent.
 */
export async function receivePart(app: FastifyInstance, request: FastifyRequest<{ Params: { transferId: string; fileId: string; index: number } }>, reply: FastifyReply): Promise<FastifyReply> {
  const { transferId, fileId, index } = request.params;
  const { connection, verified } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.part(transferId, fileId, index), null);
  const { delivery, file } = await receivingFile(app, connection, transferId, fileId);
  if (delivery.status !== 'draft' || file.status !== 'uploading') return sendSigned(app, reply, connection, 200, { type: 'ok' });
  const layout = { size: Number(file.size), partSize: file.part_size, partCount: file.part_count, leadingBytes: file.leading_bytes };
  if (index >= file.part_count) throw new HttpError(400, 'ValidationException', 'No such part', { reason: 'partIndexOutOfRange' });
  const sha256 = sha256OfDigest(verified.digest)!;
  const size = partSizeOf(layout, index);
  const length = request.headers['content-length'];
  await writePart(app.blobs, partKey(delivery.uuid, file.uuid, index), { index, sha256, size, contentLength: length === undefined ? undefined : Number(length), body: (request.body as IncomingMessage | undefined) ?? request.raw });
  const now = Date.now();
  await app.db
    .insertInto('delivery_file_parts')
    .values({ file_id: file.id, part_index: index, size, sha256, created_at: now })
    .onConflict((oc) => oc.columns(['file_id', 'part_index']).doUpdateSet({ size, sha256, created_at: now }))
    .execute();
  return sendSigned(app, reply, connection, 200, { type: 'ok' });
}

/**
 * `POST /api/2/trust/deliveries/{transferId}/complete`: every part there, the files committed, the
 * delivery sent into its recipients' inboxes, and this server's own mails to them.
 */
export async function receiveComplete(app: FastifyInstance, request: FastifyRequest<{ Params: { transferId: string } }>, reply: FastifyReply, rawBody: string): Promise<FastifyReply> {
  const { transferId } = request.params;
  const { connection } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.complete(transferId), rawBody);
  const delivery = await inboundOf(app, connection, transferId);
  if (!delivery) return refuseDelivery(app, connection, 'unknownTransfer', 'No such transfer from this partner', { transferId });
  if (delivery.status !== 'draft') return sendSigned(app, reply, connection, 200, await stateOf(app, transferId, delivery));
  const files = await app.db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery.id).execute();
  for (const file of files) {
    const parts = await app.db.selectFrom('delivery_file_parts').select(['part_index', 'size']).where('file_id', '=', file.id).execute();
    await checkComplete(app.blobs, { size: Number(file.size), partSize: file.part_size, partCount: file.part_count, leadingBytes: file.leading_bytes }, parts, (i) => partKey(delivery.uuid, file.uuid, i));
  }
  const now = Date.now();
  for (const file of files) await commitStoredFile(app.db, file, now);
  const recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute();
  const tokens = new Map<number, string>();
  const sent = await app.db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('deliveries').set({ status: 'sent', sent_at: now, recipient_count: recipients.length }).where('id', '=', delivery.id).where('status', '=', 'draft').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await trx.updateTable('delivery_recipients').set({ listed_at: now }).where('delivery_id', '=', delivery.id).execute();
    if (opensByLink(delivery.security_level)) {
      for (const r of recipients) {
        const token = newToken();
        tokens.set(r.id, token);
        await trx.updateTable('delivery_recipients').set({ token_hash: hashToken(token) }).where('id', '=', r.id).execute();
      }
    }
    await activity(trx, delivery.id, 'sent', { actor: connection.partner_url });
    return true;
  });
  const row = (await app.db.selectFrom('deliveries').selectAll().where('id', '=', delivery.id).executeTakeFirstOrThrow());
  if (sent) {
    const sender = (await app.users.findById(row.sender_id))!;
    // Levels 3/4: recipients without wrapped copies (no passphrase yet) are invited; their release comes from the sender's server.
    const pending = row.manifest === null ? new Set<number>() : await releasePendingOf(app, row, recipients);
    await notifyRecipients(app, sender, row, recipients.filter((r) => !pending.has(r.id)), tokens, files.length, request.log);
    await e2eNotify(app, sender, row, recipients.filter((r) => pending.has(r.id)), request.log);
  }
  return sendSigned(app, reply, connection, 200, await stateOf(app, transferId, row));
}

export const TRUST_RECEIPT_JOB = 'trust-receipt';
interface TrustReceiptPayload {
  deliveryId: number;
  recipient: string;
  fileName: string;
  at: number;
}

/**
 * On the recipient's server, a recipient's first complete download of a delivery that came through a
 * connection: a receipt job back to the partner instead of a mail (the sender is the partner's user).
 * True when the delivery came through a connection.
 */
export async function receiptToPartner(app: FastifyInstance, delivery: Pick<DeliveryRow, 'id'>, recipient: Pick<RecipientRow, 'email'>, fileName: string, at: number): Promise<boolean> {
  const inbound = await app.db.selectFrom('trust_inbound').select('id').where('delivery_id', '=', delivery.id).executeTakeFirst();
  if (!inbound) return false;
  await enqueueJob(app.db, TRUST_RECEIPT_JOB, { deliveryId: delivery.id, recipient: recipient.email, fileName, at } satisfies TrustReceiptPayload);
  app.jobs.kick();
  return true;
}

/** The live connection a delivery came through, with its transfer id; undefined once the connection is deleted (nothing goes back then). */
export async function inboundConnectionOf(app: FastifyInstance, deliveryId: number) {
  const inbound = await app.db
    .selectFrom('trust_inbound')
    .innerJoin('trust_connections', 'trust_connections.id', 'trust_inbound.connection_id')
    .selectAll('trust_connections')
    .select('trust_inbound.transfer_uuid')
    .where('trust_inbound.delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return inbound && inbound.deleted_at === null ? inbound : undefined;
}

/** The receipt job: a signed call to the partner, retried while it is away; dropped once the connection is deleted. */
export function trustReceiptJobs(app: FastifyInstance): Record<string, JobKind<TrustReceiptPayload>> {
  return {
    [TRUST_RECEIPT_JOB]: {
      maxAttempts: 10,
      retryDelayMs: 30_000,
      async run({ deliveryId, recipient, fileName, at }, { signal }) {
        const inbound = await inboundConnectionOf(app, deliveryId);
        if (!inbound) return;
        const receipt: TrustReceipt = { type: 'receipt', transferId: inbound.transfer_uuid, recipient, event: 'downloaded', fileName, at };
        await callPartner(app, inbound, TRUST_DELIVERY_PATHS.receipts, receipt, { signal });
      },
      giveUp: async () => undefined,
    },
  };
}

/**
 * Levels 3/4 of an announce: the E2E part present (and absent at levels 1/2), every file ciphertext,
 * the delivery id free here, and every wrapped copy for a recipient of it, a file of it (or the
 * manifest) and that recipient's live encryption key here — a key changed since the sender's
 * look-up is refused (`recipientKeyNotLive`), the sender's browser must look again.
 */
async function checkE2eAnnounce(app: FastifyInstance, connection: TrustConnectionRow, announce: TrustDeliveryAnnounce, recipients: readonly string[]): Promise<TrustDeliveryAnnounce['e2e']> {
  const e2eLevel = isE2eLevel(securityLevelOfNumber(announce.securityLevel));
  const e2e = announce.e2e;
  if (e2eLevel !== (e2e !== undefined) || announce.files.some((f) => (f.encryption !== undefined) !== e2eLevel)) {
    throw new HttpError(400, 'ValidationException', 'Levels 3 and 4 carry the encrypted manifest and ciphertext files; levels 1 and 2 neither', { reason: 'e2eMismatch' });
  }
  if (!e2e) return undefined;
  if (await app.db.selectFrom('deliveries').select('id').where('uuid', '=', e2e.deliveryId).executeTakeFirst()) {
    throw new HttpError(400, 'ValidationException', 'A delivery with this id exists on this server', { reason: 'deliveryIdTaken' });
  }
  const fileIds = new Set([...announce.files.map((f) => f.fileId), E2E_MANIFEST_FILE_ID]);
  for (const reader of e2e.readers) {
    const email = reader.email.toLowerCase();
    const user = recipients.includes(email) ? await app.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email).executeTakeFirst() : undefined;
    if (!user) throw new HttpError(400, 'ValidationException', 'Wrapped keys for someone who is not a recipient', { reason: 'unknownRecipient' });
    const live = new Set(
      (await app.db.selectFrom('public_keys').select('key_id').where('user_id', '=', user.id).where('usage', '=', 'encryption').where('revoked_at', 'is', null).execute()).map((k) => k.key_id),
    );
    for (const d of reader.descriptors) {
      if (!fileIds.has(d.fileId) || d.wrappedKey.recipientKeyId !== d.recipientKeyId) throw new HttpError(400, 'ValidationException', 'A wrapped key names an unknown file or another key', { reason: 'badDescriptor' });
      if (!live.has(d.recipientKeyId)) {
        await refuseDelivery(app, connection, 'recipientKeyNotLive', "A wrapped key is for a key that is not the recipient's live key here", { transferId: announce.transferId, recipients: [email] });
      }
    }
  }
  return e2e;
}
