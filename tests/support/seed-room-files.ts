// Complete room files written straight into the real schema (no bytes: for listings only), for the
// paging test and `npm run bench -- rooms`. Rows look like a commit leaves them (server/rooms/plain/file-uploads.ts).
import { randomUUID } from 'node:crypto';
import type { Database } from '@server/db/schema';
import type {} from '@server/rooms/kind/tables'; // the rooms tables' part of Database
import type { Kysely } from 'kysely';

const BATCH = 500;

export interface SeedRoomFiles {
  roomUuid: string;
  /** null: the room's top level. */
  folderUuid: string | null;
  count: number;
  name: (i: number) => string;
  /** The files' UUIDs (default: random); an E2E seed seals each name to its file's UUID. */
  uuid?: (i: number) => string;
  size?: (i: number) => number;
  updatedAt?: (i: number) => number;
  uploaderEmail: string;
}

export async function seedRoomFiles(db: Kysely<Database>, spec: SeedRoomFiles): Promise<void> {
  const room = await db.selectFrom('data_rooms').select('id').where('uuid', '=', spec.roomUuid).executeTakeFirstOrThrow();
  const folder = spec.folderUuid ? await db.selectFrom('room_folders').select('id').where('uuid', '=', spec.folderUuid).executeTakeFirstOrThrow() : null;
  const uploader = await db.selectFrom('users').select('id').where('email', '=', spec.uploaderEmail).executeTakeFirstOrThrow();
  const now = Date.now();
  for (let start = 0; start < spec.count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, spec.count - start) }, (_, k) => {
      const i = start + k;
      const uuid = spec.uuid?.(i) ?? randomUUID();
      const at = spec.updatedAt?.(i) ?? now - i;
      return {
        uuid,
        room_id: room.id,
        folder_id: folder?.id ?? null,
        name: spec.name(i),
        size: spec.size?.(i) ?? 1000 + i,
        mime_type: 'application/octet-stream',
        part_size: 4096,
        part_count: 1,
        sha256: '0'.repeat(64),
        blob_prefix: `rooms/${spec.roomUuid}/${uuid}`,
        state: 'complete',
        uploaded_by: uploader.id,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        deleted_by: null,
      };
    });
    await db.insertInto('room_files').values(rows).execute();
  }
}
