// A folder's (or a room's top level's) complete files a page at a time, in keyset order: a page reads
// at most `pageSize + 1` rows after the cursor, whatever the folder holds (`npm run bench -- rooms`:
// a folder of 10 000 files lists as fast as one of 100). Each order has its index on (room, folder,
// state, deleted_at, key, id): `room_files_listing` (migration 0038, lower(name)),
// `room_files_listing_size` and `room_files_listing_updated` (migration 0051).
import type { RoomFile, RoomFileSort, RoomRole } from '@shared/contract/rooms';
import { ROOM_FILE_SORTS, ROOM_FILES_PAGE_DEFAULT } from '@shared/contract/rooms';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import { badRequest } from '../../core/http-error';
import { personName } from '../kind/activity';
import { toRoomFile } from '../kind/file-rows';
import type { FolderRow, RoomRow } from '../kind/roles';

type Order = 'asc' | 'desc';

/** The sort column as SQL; `name` compares case-insensitively (the index has lower(name)). */
const sortKey = (sort: RoomFileSort): RawBuilder<string | number> =>
  sort === 'name' ? sql<string>`lower(room_files.name)` : sort === 'size' ? sql<number>`room_files.size` : sql<number>`room_files.updated_at`;

interface Position {
  sort: RoomFileSort;
  order: Order;
  key: string | number;
  id: number;
}

const encode = (p: Position) => Buffer.from(JSON.stringify([p.sort, p.order, p.key, p.id]), 'utf8').toString('base64url');

/** The cursor of another sort or order, or one not made here, is a 400 (never a 500). */
function decode(cursor: string, sort: RoomFileSort, order: Order): Position {
  let value: unknown;
  try {
    value = /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  } catch {
    value = null;
  }
  const [s, o, key, id] = Array.isArray(value) && value.length === 4 ? value : [];
  const keyFits = s === 'name' ? typeof key === 'string' && key.length <= 1000 : Number.isSafeInteger(key);
  if (!ROOM_FILE_SORTS.includes(s) || s !== sort || o !== order || !keyFits || !Number.isSafeInteger(id)) {
    throw badRequest('The list cursor is not valid', { field: 'cursor' });
  }
  return { sort, order, key: key as string | number, id: id as number };
}

/** The parsed query (RoomContentsQuerySchema); every part optional for callers inside the server. */
export interface FilePageQuery {
  pageSize?: number;
  cursor?: string | undefined;
  sort?: RoomFileSort;
  order?: Order;
}

export interface FilePage {
  files: RoomFile[];
  totalFiles: number;
  nextCursor: string | null;
}

/** One page of the complete, live files directly in the folder (or the top level), all with `role`. */
export async function filePage(
  db: Kysely<Database>,
  room: RoomRow,
  folder: FolderRow | undefined,
  role: RoomRole,
  query: FilePageQuery = {},
): Promise<FilePage> {
  const sort = query.sort ?? 'name';
  const order = query.order ?? 'asc';
  const pageSize = query.pageSize ?? ROOM_FILES_PAGE_DEFAULT;
  const after = query.cursor === undefined ? undefined : decode(query.cursor, sort, order);
  let here = db
    .selectFrom('room_files')
    .where('room_files.room_id', '=', room.id)
    .where('room_files.state', '=', 'complete')
    .where('room_files.deleted_at', 'is', null);
  here = folder ? here.where('room_files.folder_id', '=', folder.id) : here.where('room_files.folder_id', 'is', null);

  const key = sortKey(sort);
  // The listing indexes hold (room, folder, state, deleted_at, key, id). PostgreSQL takes `x is null`
  // as a filter, not as fixing x, so ordered by the key alone it never walks them in order (it read
  // and sorted the whole folder for every page, measured); ordering first by the columns that are
  // null here (all equal, nothing changes) makes the order the index's. SQLite walks them either way.
  const nulls = folder ? [sql`room_files.deleted_at`] : [sql`room_files.folder_id`, sql`room_files.deleted_at`];
  const nullColumns = sql.join(nulls.map((c) => sql`${c} ${sql.raw(order)}`));
  // No join here: with one, PostgreSQL joined the whole folder first and sorted it (measured), while
  // alone the page walks the index in order. The page's uploaders come in a second small query.
  let rows = here.selectAll('room_files').select(key.as('sort_key'));
  if (after) {
    // After (key, id): a later key in the asked order, or the same key and a later id (ties: oldest
    // first). The plain `key >= x` (or `<=`) in front lets the database seek into the index there
    // instead of filtering the folder from its start (measured: a page 90 % down took twice as long).
    const [from, beyond] = order === 'asc' ? [sql`${key} >= ${after.key}`, sql`${key} > ${after.key}`] : [sql`${key} <= ${after.key}`, sql`${key} < ${after.key}`];
    rows = rows.where(sql<boolean>`${from} and (${beyond} or room_files.id > ${after.id})`);
  }
  const [page, total] = await Promise.all([
    rows.orderBy(nullColumns).orderBy(key, order).orderBy('room_files.id', 'asc').limit(pageSize + 1).execute(),
    here.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const shown = page.slice(0, pageSize);
  const last = shown.at(-1);
  const uploaderIds = [...new Set(shown.map((r) => r.uploaded_by).filter((id): id is number => id !== null))];
  const uploaders = new Map(
    uploaderIds.length === 0 ? [] : (await db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', 'in', uploaderIds).execute()).map((u) => [u.id, u]),
  );
  return {
    files: shown.map((r) => {
      const uploader = r.uploaded_by === null ? undefined : uploaders.get(r.uploaded_by);
      return toRoomFile(r, room, folder?.uuid ?? null, role, uploader?.email ?? '', uploader ? personName(uploader) : null);
    }),
    totalFiles: Number(total.n),
    nextCursor:
      page.length > pageSize && last
        ? encode({ sort, order, key: sort === 'name' ? String(last.sort_key) : Number(last.sort_key), id: last.id })
        : null,
  };
}
