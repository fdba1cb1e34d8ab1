import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Room file operations (issue 15, server/README "Data rooms"):
 *
 * - `room_files.scan_state` (SPEC §3 virus-scan state: `notScanned` | `scanning` | `clean` |
 *   `virusDetected` | `error`) and `scan_detail` (the virus names, the scanner's error). Files
 *   committed before the scan existed stay `notScanned`, downloadable as before.
 * - `room_files.replaces_id`: an upload that becomes the next version of that file at its commit
 *   (the file keeps its uuid); the upload row goes with the file it replaces. `last_upload_uuid`:
 *   the upload whose content the file holds, so a repeated commit of it still answers the file.
 * - `room_file_versions`: the earlier contents of a file, each with its own bytes under
 *   `blob_prefix`, purged with the file or after 30 days (SPEC §7).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema.alterTable('room_files').addColumn('scan_state', 'text', (c) => c.notNull().defaultTo('notScanned')).execute();
  await db.schema.alterTable('room_files').addColumn('scan_detail', 'text').execute();
  await db.schema.alterTable('room_files').addColumn('replaces_id', 'integer', (c) => c.references('room_files.id').onDelete('cascade')).execute();
  // The upload that brought the current content (a repeated commit of a replace upload answers the file).
  await db.schema.alterTable('room_files').addColumn('last_upload_uuid', 'text').execute();
  // The abandoned-upload sweep looks for old uploads.
  await db.schema.createIndex('room_files_state').on('room_files').columns(['state', 'updated_at']).execute();
  await db.schema
    .createTable('room_file_versions')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('file_id', 'integer', (c) => c.notNull().references('room_files.id').onDelete('cascade'))
    // 1 for the first upload of the file, counting up; the file's current content has the next number.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('part_size', 'integer', (c) => c.notNull())
    .addColumn('part_count', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text')
    .addColumn('blob_prefix', 'text', (c) => c.notNull())
    .addColumn('scan_state', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // When this content was uploaded, and when a newer one replaced it (the 30 days count from then).
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('replaced_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_file_versions_file').on('room_file_versions').columns(['file_id', 'version']).execute();
  await db.schema.createIndex('room_file_versions_replaced').on('room_file_versions').column('replaced_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_file_versions').execute();
  await db.schema.dropIndex('room_files_state').execute();
  await db.schema.alterTable('room_files').dropColumn('last_upload_uuid').execute();
  await db.schema.alterTable('room_files').dropColumn('replaces_id').execute();
  await db.schema.alterTable('room_files').dropColumn('scan_detail').execute();
  await db.schema.alterTable('room_files').dropColumn('scan_state').execute();
}
