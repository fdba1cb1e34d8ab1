// What a backup copies out of the blob store: every blob a database row points to. Found by
// grepping the blob store's writers (`blobs.put`): delivery parts (uploads/parts.ts via
// deliveries/parts.ts), room file parts (rooms/plain/file-uploads.ts, rooms/e2e/e2e-items.ts, copies of
// data-room requests in rooms/requests/requests-copy.ts), form layout images (forms/layout-images.ts).
// Theme logos and favicons are bytes in the database (theme_assets), so the database copy holds them.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type {} from '../forms/layout-images'; // form_layout_images' part of Database
import type {} from '../forms/tables'; // forms' part of Database
import type {} from '../rooms/kind/tables'; // the rooms tables' part of Database
import { partKey } from '../deliveries/records';
import { partSizeOf, type PartLayout } from '../uploads/parts';

/** One blob: its size, and its SHA-256 when the database records one (else the backup records what it read). */
export interface ListedPart {
  key: string;
  size: number;
  sha256: string | null;
}

/** The blobs of one item, in byte order; `sha256`: of all of them together, when the database records it. */
export interface ListedGroup {
  parts: ListedPart[];
  sha256: string | null;
  /** What the blobs belong to, by uuids, for an operator's report: `delivery <uuid>, file <uuid>`, `room <uuid>, file <uuid>`, … */
  item: string;
}

interface StoredFile {
  blob_prefix: string;
  size: number;
  part_size: number;
  part_count: number;
  sha256: string | null;
}

/** A committed room file's or version's parts: sizes from its layout (parts of committed room files keep no hash rows). */
function wholeFile(row: StoredFile, item: string): ListedGroup {
  const layout: PartLayout = { size: Number(row.size), partSize: row.part_size, partCount: row.part_count, leadingBytes: 0 };
  const parts = Array.from({ length: row.part_count }, (_, i) => ({ key: `${row.blob_prefix}/${i}`, size: partSizeOf(layout, i), sha256: null }));
  return { parts, sha256: row.sha256, item };
}

/**
 * Every group whose bytes the blob store must hold: parts of deliveries not deleted and not
 * purged; every room file (plain and E2E, in the trash or in a room in the trash too: both can
 * be restored) with its current content, the parts received so far of uploads in progress, every
 * earlier version; every form layout image.
 */
export async function listedGroups(db: Kysely<Database>): Promise<ListedGroup[]> {
  const groups: ListedGroup[] = [];
  const deliveryParts = await db
    .selectFrom('delivery_file_parts')
    .innerJoin('delivery_files', 'delivery_files.id', 'delivery_file_parts.file_id')
    .innerJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id')
    .select(['deliveries.uuid as delivery', 'delivery_files.uuid as file', 'delivery_file_parts.part_index as index', 'delivery_file_parts.size as size', 'delivery_file_parts.sha256 as sha256'])
    .where('deliveries.status', '!=', 'deleted')
    .where('deliveries.purged_at', 'is', null)
    .orderBy('deliveries.id')
    .orderBy('delivery_files.id')
    .orderBy('delivery_file_parts.part_index')
    .execute();
  for (const r of deliveryParts) {
    groups.push({ parts: [{ key: partKey(r.delivery, r.file, r.index), size: Number(r.size), sha256: r.sha256 }], sha256: null, item: `delivery ${r.delivery}, file ${r.file}` });
  }

  const roomFiles = await db
    .selectFrom('room_files')
    .innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id')
    .select(['room_files.id', 'room_files.uuid', 'data_rooms.uuid as room', 'room_files.state', 'room_files.blob_prefix', 'room_files.size', 'room_files.part_size', 'room_files.part_count', 'room_files.sha256'])
    .orderBy('room_files.id')
    .execute();
  const uploading = roomFiles.filter((f) => f.state !== 'complete');
  const received =
    uploading.length === 0
      ? []
      : await db
          .selectFrom('room_file_parts')
          .select(['file_id', 'part_index', 'size', 'sha256'])
          .where('file_id', 'in', uploading.map((f) => f.id))
          .orderBy('file_id')
          .orderBy('part_index')
          .execute();
  for (const file of roomFiles) {
    const item = `room ${file.room}, file ${file.uuid}`;
    if (file.state === 'complete') groups.push(wholeFile(file, item));
    else {
      // An upload in progress: the parts its rows record (the uploader resumes after a restore).
      const parts = received.filter((p) => p.file_id === file.id).map((p) => ({ key: `${file.blob_prefix}/${p.part_index}`, size: Number(p.size), sha256: p.sha256 }));
      if (parts.length > 0) groups.push({ parts, sha256: null, item: `${item}, upload in progress` });
    }
  }
  const versions = await db
    .selectFrom('room_file_versions')
    .innerJoin('room_files', 'room_files.id', 'room_file_versions.file_id')
    .innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id')
    .select(['room_file_versions.uuid', 'room_files.uuid as file', 'data_rooms.uuid as room', 'room_file_versions.blob_prefix', 'room_file_versions.size', 'room_file_versions.part_size', 'room_file_versions.part_count', 'room_file_versions.sha256'])
    .orderBy('room_file_versions.id')
    .execute();
  for (const version of versions) groups.push(wholeFile(version, `room ${version.room}, file ${version.file}, earlier version ${version.uuid}`));

  const images = await db
    .selectFrom('form_layout_images')
    .innerJoin('forms', 'forms.id', 'form_layout_images.form_id')
    .select(['form_layout_images.blob_key', 'form_layout_images.size', 'form_layout_images.sha256', 'forms.uuid as form'])
    .orderBy('form_layout_images.id')
    .execute();
  for (const image of images) groups.push({ parts: [{ key: image.blob_key, size: Number(image.size), sha256: image.sha256 }], sha256: null, item: `form ${image.form}, layout image` });
  return groups;
}
