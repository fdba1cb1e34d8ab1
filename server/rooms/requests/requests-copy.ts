// Data-room requests, the copy: once the answering delivery is sent, its files become room files
// of the requested folder (uploader = the sender), through the room's own commit path — the
// storage total, the virus scan (scan.ts) and the `upload` activity — then the requester is mailed;
// when the job gives up, the requester is mailed that the files could not be placed.
// The bytes are copied part by part (a delivery's blobs go with its expiry and deletion, a room
// file's with the trash: they cannot share one stored object).
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { reduceLanguage } from '@shared/contract/constants';
import { DELIVERY_WEB_LINKS } from '@shared/contract/deliveries';
import { nameKey } from '@shared/contract/names';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { partKey } from '../../deliveries/records';
import type { JobKind } from '../../jobs/job-queue';
import { addStored } from '../../reports/storage-totals';
import { checkSpace } from '../../uploads/space';
import { recordActivity } from '../kind/activity';
import { fileBlobPrefix } from '../kind/file-rows';
import type { RequestRow } from './request-rows';
import { requestPlace } from './requests';
import { ROOM_REQUEST_COPY_JOB, type RoomRequestCopyPayload } from './requests-delivery';
import { initialScanState, queueRoomScan } from '../plain/scan';

/** "report.pdf" → "report (1).pdf" as the web's "keep both" (web/features/rooms/api/room-files.ts numberedName). */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** The name, or the first "name (n).ext" no live file or folder of the folder has (case-insensitive). */
export async function freeName(db: Kysely<Database>, roomId: number, folderId: number | null, name: string): Promise<string> {
  let files = db.selectFrom('room_files').select(sql<string>`lower(name)`.as('n')).where('room_id', '=', roomId).where('deleted_at', 'is', null);
  let folders = db.selectFrom('room_folders').select(sql<string>`lower(name)`.as('n')).where('room_id', '=', roomId).where('deleted_at', 'is', null);
  files = folderId === null ? files.where('folder_id', 'is', null) : files.where('folder_id', '=', folderId);
  folders = folderId === null ? folders.where('parent_id', 'is', null) : folders.where('parent_id', '=', folderId);
  const taken = new Set([...(await files.execute()), ...(await folders.execute())].map((r) => r.n));
  if (!taken.has(nameKey(name))) return name;
  for (let n = 1; ; n++) {
    const candidate = numberedName(name, n);
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}

async function* hashing(stream: Readable, hash: ReturnType<typeof createHash>): AsyncIterable<Uint8Array> {
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    yield chunk as Uint8Array;
  }
}

async function copyFiles(app: FastifyInstance, request: RequestRow): Promise<void> {
  if (request.copied_at !== null || request.delivery_id === null) return;
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', request.delivery_id).executeTakeFirst();
  if (!delivery) return;
  const { room, folder, requester } = await requestPlace(app, request);
  const sender = await app.db.selectFrom('users').select(['id', 'email']).where('id', '=', delivery.sender_id).executeTakeFirstOrThrow();
  const files = await app.db.selectFrom('delivery_files').selectAll().where('delivery_id', '=', delivery.id).where('status', '=', 'committed').where('encrypted', '=', 0).orderBy('id').execute();
  const done = new Set<string>(JSON.parse(request.copied_files) as string[]);
  for (const source of files) {
    if (done.has(source.uuid)) continue;
    // The room's quota as for an upload (507 before any byte): the job retries, then gives up (logged).
    await checkSpace(app, Number(source.size), { roomId: room.id });
    const uuid = randomUUID();
    const blobPrefix = fileBlobPrefix(room.uuid, uuid);
    const hash = createHash('sha256');
    for (let i = 0; i < source.part_count; i++) {
      await app.blobs.put(`${blobPrefix}/${i}`, hashing(await app.blobs.getStream(partKey(delivery.uuid, source.uuid, i)), hash));
    }
    const sha256 = hash.digest('hex');
    const now = Date.now();
    const scanState = initialScanState(app, room);
    const name = await freeName(app.db, room.id, folder?.id ?? null, source.name);
    done.add(source.uuid);
    const fileId = await app.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('room_files')
        .values({
          uuid,
          room_id: room.id,
          folder_id: folder?.id ?? null,
          name,
          size: Number(source.size),
          mime_type: source.mime_type,
          part_size: source.part_size,
          part_count: source.part_count,
          sha256,
          blob_prefix: blobPrefix,
          state: 'complete',
          scan_state: scanState,
          uploaded_by: sender.id,
          created_at: now,
          updated_at: now,
          deleted_at: null,
          deleted_by: null,
          scan_detail: null,
          replaces_id: null,
          last_upload_uuid: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await addStored(trx, 'dataRooms', 1, Number(source.size), now);
      await queueRoomScan(trx, scanState, { fileId: inserted.id, blobPrefix });
      await trx
        .updateTable('room_requests')
        .set((eb) => ({ copied_files: JSON.stringify([...done]), files_copied: eb('files_copied', '+', 1) }))
        .where('id', '=', request.id)
        .execute();
      return inserted.id;
    });
    if (scanState === 'scanning') app.jobs.kick();
    await recordActivity(app.db, 'upload', sender, { room, folderId: folder?.id ?? null, fileId, uuid, name });
  }
  await app.db.updateTable('room_requests').set({ copied_at: Date.now() }).where('id', '=', request.id).execute();
  await app.mailer.send({
    to: requester.email,
    template: 'roomRequestAnswered',
    language: reduceLanguage(requester.language),
    data: {
      senderEmail: sender.email,
      roomName: room.name,
      folderName: folder?.name ?? null,
      fileCount: done.size,
      link: `${app.config.publicUrl}${folder ? `/datarooms/${room.uuid}/folders/${folder.uuid}` : `/datarooms/${room.uuid}`}`,
    },
  });
}

/**
 * After the copy's last attempt (room or folder deleted, no space): one mail tells the requester the
 * files are not (all) in the folder; the delivery itself reached them, the mail links it. The room
 * and folder rows stay while in the trash, so their names are still there.
 */
async function mailNotPlaced(app: FastifyInstance, requestId: number): Promise<void> {
  const row = await app.db
    .selectFrom('room_requests as r')
    .innerJoin('data_rooms as d', 'd.id', 'r.room_id')
    .leftJoin('room_folders as f', 'f.id', 'r.folder_id')
    .innerJoin('users as u', 'u.id', 'r.requester_id')
    .innerJoin('deliveries as dl', 'dl.id', 'r.delivery_id')
    .innerJoin('users as s', 's.id', 'dl.sender_id')
    .select(['r.copied_at', 'r.files_copied', 'd.name as room_name', 'f.name as folder_name', 'u.email', 'u.language', 'dl.id as delivery_id', 'dl.uuid as delivery_uuid', 's.email as sender_email'])
    .where('r.id', '=', requestId)
    .executeTakeFirst();
  if (!row || row.copied_at !== null) return;
  const files = await app.db.selectFrom('delivery_files').select((eb) => eb.fn.countAll<number>().as('n')).where('delivery_id', '=', row.delivery_id).where('status', '=', 'committed').where('encrypted', '=', 0).executeTakeFirstOrThrow();
  await app.mailer.send({
    to: row.email,
    template: 'roomRequestNotPlaced',
    language: reduceLanguage(row.language),
    data: {
      senderEmail: row.sender_email,
      roomName: row.room_name,
      folderName: row.folder_name,
      fileCount: Number(files.n),
      placed: Number(row.files_copied),
      link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.inbox(row.delivery_uuid)}`,
    },
  });
}

/** The copy job kind (app.ts): retried like the room scan; after the last attempt the request stays used, uncopied, and the requester is mailed. */
export function roomRequestJobs(app: FastifyInstance): Record<string, JobKind<RoomRequestCopyPayload>> {
  return {
    [ROOM_REQUEST_COPY_JOB]: {
      maxAttempts: 5,
      retryDelayMs: 30_000,
      run: async (payload) => {
        const request = await app.db.selectFrom('room_requests').selectAll().where('id', '=', payload.requestId).executeTakeFirst();
        if (request) await copyFiles(app, request);
      },
      giveUp: async (payload, error) => {
        app.log.error({ err: error, requestId: payload.requestId }, 'room request: copying the delivery files into the room failed');
        await mailNotPlaced(app, payload.requestId);
      },
    },
  };
}
