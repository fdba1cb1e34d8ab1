// The room-wide overview of a plain room's public links (issue 32, server/README "The room's
// links"): file, folder and upload links of the room's live items in one list, for its OWNER.
import type { RoomLinkOverview, RoomLinkOverviewEntry } from '@shared/contract/room-links';
import type { RequestContext } from '../../core/request-context';
import { personName } from '../kind/activity';
import { liveRoom, requireRole, type FolderRow } from '../kind/roles';
import { requireRoomKind } from '../kind/room-kind';
import { linkStateOf } from './links';

/**
 * GET /rooms/{room}/links. Who: the room's OWNER (SPEC §6 "manage access": the links hand the room's
 * content to people without a role; an EDITOR manages the links of a file or folder in its own
 * dialog, but not the room's whole list — 403). A Secure room: 409 `encryptedRoom` (it has none).
 * Links of items in the trash are left out: they do not work until a restore, and cannot be revoked
 * before (the item's revoke call needs a live item).
 */
export async function listRoomLinks(ctx: RequestContext, roomUuid: string): Promise<RoomLinkOverview> {
  const { db } = ctx.app;
  const now = ctx.app.clock();
  const room = await liveRoom(db, roomUuid);
  await requireRole(db, room, ctx.user.id, 'manageAccess');
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): it has no public links — the server cannot read its files');
  const folders = await db.selectFrom('room_folders').selectAll().where('room_id', '=', room.id).execute();
  const byId = new Map(folders.map((f) => [f.id, f]));
  // The folders from the top level down to `folder` (inclusive), or null when any of them is in the trash.
  const chainOf = (folder: FolderRow | undefined): FolderRow[] | null => {
    const chain: FolderRow[] = [];
    for (let f = folder; f; f = f.parent_id === null ? undefined : byId.get(f.parent_id)) {
      if (f.deleted_at !== null || chain.length > folders.length) return null;
      chain.unshift(f);
    }
    return chain;
  };
  const step = (f: FolderRow) => ({ uuid: f.uuid, name: f.name });
  const creator = ['u.email as creator_email', 'u.first_name as creator_first_name', 'u.last_name as creator_last_name'] as const;
  const common = (r: {
    uuid: string;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
    downloads: number;
    max_downloads: number | null;
    password_hash: string | null;
    creator_email: string | null;
    creator_first_name: string | null;
    creator_last_name: string | null;
  }) => ({
    uuid: r.uuid,
    createdBy: r.creator_email ?? '',
    createdByName: personName({ first_name: r.creator_first_name, last_name: r.creator_last_name }),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
    state: linkStateOf(r, now),
    downloads: Number(r.downloads),
    maxDownloads: r.max_downloads === null ? null : Number(r.max_downloads),
    passwordProtected: r.password_hash !== null,
  });

  const links: RoomLinkOverviewEntry[] = [];
  const fileLinks = await db
    .selectFrom('room_links as l')
    .innerJoin('room_files as f', 'f.id', 'l.file_id')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .selectAll('l')
    .select(['f.uuid as file_uuid', 'f.name as file_name', 'f.folder_id as file_folder_id', 'f.deleted_at as file_deleted_at', 'f.state as file_state', ...creator])
    .where('l.room_id', '=', room.id)
    .execute();
  for (const r of fileLinks) {
    if (r.file_deleted_at !== null || r.file_state !== 'complete') continue;
    const chain = chainOf(r.file_folder_id === null ? undefined : byId.get(r.file_folder_id));
    if (!chain) continue;
    links.push({ ...common(r), kind: 'file', targetUuid: r.file_uuid, targetName: r.file_name, path: chain.map(step), uploads: 0 });
  }
  const folderLinks = await db
    .selectFrom('room_folder_links as l')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .selectAll('l')
    .select([...creator])
    .where('l.room_id', '=', room.id)
    .execute();
  for (const r of folderLinks) {
    const chain = chainOf(byId.get(r.folder_id));
    const target = chain?.at(-1);
    if (!chain || !target) continue;
    links.push({ ...common(r), kind: r.kind === 'drop' ? 'drop' : 'folder', targetUuid: target.uuid, targetName: target.name, path: chain.slice(0, -1).map(step), uploads: Number(r.uploads) });
  }
  links.sort((x, y) => y.createdAt - x.createdAt || (x.uuid < y.uuid ? -1 : 1));
  return { links };
}
