import type { Generated } from 'kysely';

/**
 * Data-room tables (migration 0022), merged into the core's `Database` type. Conventions of the
 * core: times epoch milliseconds (bigint), flags 0/1.
 */
export interface DataRoomsTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  /** 1: end-to-end encrypted (not available yet; the create call refuses it). */
  encrypted: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** Set: in the trash. */
  deleted_at: number | null;
  deleted_by: number | null;
}

export interface RoomFoldersTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  /** null: at the room's top level. */
  parent_id: number | null;
  name: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  deleted_by: number | null;
}

export interface RoomAccessTable {
  id: Generated<number>;
  room_id: number;
  /** null: set on the room itself. */
  folder_id: number | null;
  user_id: number;
  /** shared/contract/rooms.ts ROOM_ROLES. */
  role: string;
  wrapped_key: string | null;
  granted_by: number | null;
  created_at: number;
}

export interface RoomTables {
  data_rooms: DataRoomsTable;
  room_folders: RoomFoldersTable;
  room_access: RoomAccessTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends RoomTables {}
}
