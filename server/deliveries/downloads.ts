// Stage 4: downloads — which file a viewer may fetch, its bytes part by part, the download receipt.
import type { Readable } from 'node:stream';
import { reduceLanguage } from '@shared/contract/constants';
import { DELIVERY_WEB_LINKS } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../core/http-error';
import { partsStream } from '../uploads/bytes';
import { activity, fileOf, layoutOf, partKey, timeStateOf, type DeliveryRow, type FileRow, type RecipientRow, type Viewer } from './records';
import { refuseUnlessScanned } from '../virus-scan/review-policy';

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

/** The bytes `start..end` (inclusive) of a committed file, read part by part (never buffered whole). */
export function fileStream(app: FastifyInstance, delivery: DeliveryRow, file: FileRow, start: number, end: number): Readable {
  return partsStream(app.blobs, layoutOf(file), (i) => partKey(delivery.uuid, file.uuid, i), start, end);
}

/** Records a recipient's first complete download (SPEC §4 per-recipient downloaded state). */
export async function markDownloaded(app: FastifyInstance, viewer: Viewer, file: FileRow): Promise<void> {
  if (viewer.kind === 'sender') return;
  await recordDownload(app, viewer.delivery, viewer.recipient, file.name);
}

/**
 * The download in the activity, and the first one per recipient as its downloaded state with a
 * receipt: mailed to the sender, or for a delivery from a trust-network partner sent back to it.
 * Also for a receipt a partner sends back (trust-networks/receipts.ts).
 */
export async function recordDownload(app: FastifyInstance, delivery: DeliveryRow, recipient: Pick<RecipientRow, 'id' | 'email'>, fileName: string, now = Date.now()): Promise<void> {
  const first = await app.db
    .updateTable('delivery_recipients')
    .set({ downloaded_at: now })
    .where('id', '=', recipient.id)
    .where('downloaded_at', 'is', null)
    .executeTakeFirst();
  await activity(app.db, delivery.id, 'downloaded', {
    actor: recipient.email,
    recipientId: recipient.id,
    detail: fileName,
    level: delivery.security_level,
  });
  if (Number(first.numUpdatedRows) !== 1) return;
  if (await app.deliveryHooks.partners.reportDownload(delivery, recipient, fileName, now)) return;
  // The first complete download of this recipient: a receipt to the sender.
  const sender = await app.users.findById(delivery.sender_id);
  if (!sender) return;
  await app.mailer.send({
    to: sender.email,
    template: 'downloadReceipt',
    language: reduceLanguage(sender.language),
    data: { recipient: recipient.email, subject: delivery.subject, fileName, link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.outbox}` },
  });
}
