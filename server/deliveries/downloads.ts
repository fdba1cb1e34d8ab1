// Stage 4: downloads — which file a viewer may fetch, its bytes part by part, the download receipt.
import { Readable } from 'node:stream';
import { reduceLanguage } from '@shared/contract/constants';
import { DELIVERY_WEB_LINKS } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../core/http-error';
import { type BlobRangeReader, type ByteRange } from '../storage/blob-store';
import { activity, boundsOf, fileOf, partKey, timeStateOf, type DeliveryRow, type FileRow, type Viewer } from './records';
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
  await activity(app.db, viewer.delivery.id, 'downloaded', {
    actor: viewer.recipient.email,
    recipientId: viewer.recipient.id,
    detail: file.name,
    level: viewer.delivery.security_level,
  });
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
