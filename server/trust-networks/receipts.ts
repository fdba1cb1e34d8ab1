import { TRUST_DELIVERY_ERROR, TRUST_DELIVERY_PATHS, type TrustReceipt } from '@shared/contract/trust-networks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../core/http-error';
import { recordDownload } from '../deliveries/downloads';
import { sendSigned, verifyPartnerCall } from './partner-calls';

/**
 * `POST /api/2/trust/receipts` on the sender's server: a partner reports a recipient's first
 * download of a transfer it received over this very connection; the recipient is then downloaded
 * in the sender's lists, with the usual receipt mail. Idempotent (the first report counts).
 */
export async function receiveReceipt(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, receipt: TrustReceipt, rawBody: string): Promise<FastifyReply> {
  const { connection } = await verifyPartnerCall(app, request, TRUST_DELIVERY_PATHS.receipts, rawBody);
  const transfer = await app.db.selectFrom('trust_transfers').selectAll().where('uuid', '=', receipt.transferId).where('connection_id', '=', connection.id).executeTakeFirst();
  const email = receipt.recipient.toLowerCase();
  if (!transfer || !(JSON.parse(transfer.recipients) as string[]).includes(email)) {
    await app.auditLog.record({ actorUserId: null, action: 'trustNetwork.deliveryRefused', subjectUserId: null, details: { reason: 'unknownTransfer', connectionId: connection.uuid, transferId: receipt.transferId } });
    throw new HttpError(403, TRUST_DELIVERY_ERROR, 'No such transfer to this recipient over this connection', { reason: 'unknownTransfer' });
  }
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', transfer.delivery_id).executeTakeFirstOrThrow();
  const recipient = await app.db.selectFrom('delivery_recipients').select(['id', 'email']).where('delivery_id', '=', delivery.id).where('email', '=', email).executeTakeFirst();
  if (recipient) await recordDownload(app, delivery, recipient, receipt.fileName, Math.min(receipt.at, Date.now()));
  return sendSigned(app, reply, connection, 200, { type: 'ok' });
}
