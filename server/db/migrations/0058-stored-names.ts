import { BIDI_CONTROL_CHARACTERS, keepBothNames, nameKey, normaliseName, ZERO_WIDTH_CHARACTERS } from '@shared/contract/names';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Issue 28 §1: names stored before the one name rule (shared/contract/names.ts) are brought under
 * it, so every stored name is in NFC and none hides bidi controls or zero-width characters
 * (server/README "Names: one rule", "Names stored before the rule"):
 * - plain data rooms, their folders and files; delivery files in clear (levels 1/2, and so form
 *   and submit-box uploads) and the files a form submission declared; forms (name and name key).
 * - Skipped: E2E rooms (`data_rooms.encrypted = 1`: the room's, its folders' and files' `name`
 *   columns hold sealed names) and level 3/4 delivery files (`delivery_files.encrypted = 1`: the
 *   signed manifest is the name readers show, the client stores it in NFC already). Also left:
 *   the room activity's `item_name` (what an item was called then) and custom field names (values
 *   and templates refer to them; new saves store them in NFC).
 * - Bidi controls and zero-width characters are dropped (they are invisible, the visible name
 *   stays); a form name also loses control characters; a name left blank becomes `_`.
 * - A changed name that is now taken by a live sibling (same parent for room folders and files,
 *   a room of one of the same members, the same delivery, any form) gets the "keep both" name
 *   (`keepBothNames`: "a (1).txt", "a (2).txt", …), so no row is lost or merged; names that were
 *   right already keep theirs. Trashed room items are renamed without the sibling check (restoring
 *   checks it).
 * Down does nothing: the old spellings are not kept.
 */

const HIDDEN = new RegExp(`${BIDI_CONTROL_CHARACTERS.source}|${ZERO_WIDTH_CHARACTERS.source}`, 'g');
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The name as the rule stores it: NFC, without bidi controls and zero-width characters (and controls where asked). */
export function storedName(name: string, dropControls = false): string {
  let cleaned = normaliseName(name).replace(HIDDEN, '');
  if (dropControls) cleaned = cleaned.replace(CONTROLS, '');
  // Dropping a joiner can leave a pair NFC composes.
  cleaned = normaliseName(cleaned);
  return cleaned.trim() === '' ? '_' : cleaned;
}

/** `name`, or its first "keep both" name whose key no sibling holds. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(nameKey(name))) return name;
  for (let tries = 100; ; tries *= 10) {
    const free = keepBothNames(name, tries).find((candidate) => !taken.has(nameKey(candidate)));
    if (free !== undefined) return free;
  }
}

interface NamedRow {
  id: number;
  name: string;
}

interface Tables {
  data_rooms: { id: number; name: string; encrypted: number; deleted_at: number | null };
  room_access: { room_id: number; folder_id: number | null; user_id: number };
  room_folders: { id: number; room_id: number; parent_id: number | null; name: string; deleted_at: number | null };
  room_files: { id: number; room_id: number; folder_id: number | null; name: string; deleted_at: number | null };
  delivery_files: { id: number; delivery_id: number; name: string; encrypted: number };
  form_submission_files: { session_id: string; field_name: string; name: string };
  forms: { id: number; name: string; name_key: string };
}
type Db = Kysely<Tables>;

const BATCH = 500;

/**
 * Walks the rows a query selects whose name has a non-ASCII character (an ASCII name is in NFC and
 * holds none of the refused invisible characters), by id in batches, renaming each one whose
 * stored form differs to a name free among `siblings(row)`.
 */
async function renameRows<QueryTables, From extends keyof QueryTables, Row extends NamedRow>(
  db: Db,
  rows: (afterId: number) => SelectQueryBuilder<QueryTables, From, Row>,
  nameColumn: string,
  siblings: (row: Row) => Promise<string[]>,
  write: (row: Row, name: string) => Promise<void>,
): Promise<void> {
  const nonAscii =
    databaseKindOf(db as unknown as Kysely<unknown>) === 'postgres'
      ? sql<boolean>`length(${sql.ref(nameColumn)}) <> octet_length(${sql.ref(nameColumn)})`
      : sql<boolean>`length(${sql.ref(nameColumn)}) <> length(cast(${sql.ref(nameColumn)} as blob))`;
  for (let afterId = 0; ; ) {
    const batch = await rows(afterId).where(nonAscii).limit(BATCH).execute();
    for (const row of batch) {
      const cleaned = storedName(row.name);
      if (cleaned === row.name) continue;
      await write(row, freeName(cleaned, new Set((await siblings(row)).map(nameKey))));
    }
    if (batch.length < BATCH) return;
    afterId = batch[batch.length - 1]!.id;
  }
}

const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);

async function rooms(db: Db): Promise<void> {
  await renameRows(
    db,
    (afterId) =>
      db.selectFrom('data_rooms').select(['id', 'name', 'deleted_at']).where('encrypted', '=', 0).where('id', '>', afterId).orderBy('id'),
    'data_rooms.name',
    async (room) => {
      if (room.deleted_at !== null) return [];
      // Room names are unique per member (server/rooms/kind/names.ts checkRoomNameFree): the live rooms of everyone on this one.
      const members = db.selectFrom('room_access').select('user_id').where('room_id', '=', room.id).where('folder_id', 'is', null);
      return names(
        await db
          .selectFrom('data_rooms')
          .innerJoin('room_access', 'room_access.room_id', 'data_rooms.id')
          .select('data_rooms.name')
          .where('room_access.folder_id', 'is', null)
          .where('room_access.user_id', 'in', members)
          .where('data_rooms.deleted_at', 'is', null)
          .where('data_rooms.id', '!=', room.id)
          .execute(),
      );
    },
    async (room, name) => {
      await db.updateTable('data_rooms').set({ name }).where('id', '=', room.id).execute();
    },
  );
}

/** Live folders and files of one parent (they share names), but `except`. As checkNameFree (rooms/kind/names.ts) asks it; a migration keeps its own copy so later changes there cannot change what it did. */
async function roomSiblings(db: Db, roomId: number, parentId: number | null, except: { folderId?: number; fileId?: number }): Promise<string[]> {
  let folders = db.selectFrom('room_folders').select('name').where('room_id', '=', roomId).where('deleted_at', 'is', null);
  folders = parentId === null ? folders.where('parent_id', 'is', null) : folders.where('parent_id', '=', parentId);
  if (except.folderId !== undefined) folders = folders.where('id', '!=', except.folderId);
  let files = db.selectFrom('room_files').select('name').where('room_id', '=', roomId).where('deleted_at', 'is', null);
  files = parentId === null ? files.where('folder_id', 'is', null) : files.where('folder_id', '=', parentId);
  if (except.fileId !== undefined) files = files.where('id', '!=', except.fileId);
  return [...names(await folders.execute()), ...names(await files.execute())];
}

/** The folders, then the files, of plain rooms; `parent` is the folder holding the item (null: the top level). */
async function roomItems(db: Db): Promise<void> {
  for (const [table, parentColumn] of [
    ['room_folders', 'parent_id'],
    ['room_files', 'folder_id'],
  ] as const) {
    // Both tables have the columns read here; one alias lets one query serve both.
    const items = `${table} as item` as 'room_files as item';
    await renameRows(
      db,
      (afterId) =>
        db
          .selectFrom(items)
          .innerJoin('data_rooms', 'data_rooms.id', 'item.room_id')
          .select(['item.id', 'item.name', 'item.room_id', 'item.deleted_at', sql<number | null>`item.${sql.raw(parentColumn)}`.as('parent')])
          .where('data_rooms.encrypted', '=', 0)
          .where('item.id', '>', afterId)
          .orderBy('item.id'),
      'item.name',
      async (item) =>
        item.deleted_at !== null ? [] : roomSiblings(db, item.room_id, item.parent, table === 'room_folders' ? { folderId: item.id } : { fileId: item.id }),
      async (item, name) => {
        await db
          .updateTable(table as 'room_files')
          .set({ name })
          .where('id', '=', item.id)
          .execute();
      },
    );
  }
}

async function deliveryFiles(db: Db): Promise<void> {
  await renameRows(
    db,
    (afterId) => db.selectFrom('delivery_files').select(['id', 'name', 'delivery_id']).where('encrypted', '=', 0).where('id', '>', afterId).orderBy('id'),
    'delivery_files.name',
    // A delivery's file names are unique among all its files (server/deliveries/rules.ts checkAnotherFile).
    async (file) => names(await db.selectFrom('delivery_files').select('name').where('delivery_id', '=', file.delivery_id).where('id', '!=', file.id).execute()),
    async (file, name) => {
      await db.updateTable('delivery_files').set({ name }).where('id', '=', file.id).execute();
    },
  );
  // What an open submission declared is compared with its uploads' names: the same stored form.
  for (const declared of await db.selectFrom('form_submission_files').select(['session_id', 'field_name', 'name']).execute()) {
    const name = storedName(declared.name);
    if (name === declared.name) continue;
    await db
      .updateTable('form_submission_files')
      .set({ name })
      .where('session_id', '=', declared.session_id)
      .where('field_name', '=', declared.field_name)
      .where('name', '=', declared.name)
      .execute();
  }
}

async function forms(db: Db): Promise<void> {
  // Few rows; `name_key` is unique, so every changed key is checked against all the others.
  const all = await db.selectFrom('forms').select(['id', 'name', 'name_key']).orderBy('id').execute();
  const keys = new Map(all.map((f) => [f.id, f.name_key]));
  for (const form of all) {
    const cleaned = storedName(form.name.trim(), true);
    if (cleaned === form.name && nameKey(cleaned) === form.name_key) continue;
    const taken = new Set([...keys].filter(([id]) => id !== form.id).map(([, key]) => key));
    const name = freeName(cleaned, taken);
    keys.set(form.id, nameKey(name));
    await db.updateTable('forms').set({ name, name_key: nameKey(name) }).where('id', '=', form.id).execute();
  }
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Db;
  await rooms(db);
  await roomItems(db);
  await deliveryFiles(db);
  await forms(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the names stay in their stored form (the old spellings are not kept).
}
