// Comments on files and folders (issue 31 §1), both room kinds: every role reads, OWNER and EDITOR
// write (the `edit` right, SPEC §6), the author edits and deletes their own, an OWNER deletes any.
// Secure rooms: the browser seals and signs the text; the server keeps ciphertext and signature.
import { randomUUID } from 'node:crypto';
import { ROOM_COMMENT_MAX, type RoomComment, type RoomCommentList } from '@shared/contract/room-comments';
import { ROOM_PERMISSIONS } from '@shared/contract/rooms';
import { accessDenied, badRequest, HttpError, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { liveFile } from '../kind/file-rows';
import { liveFolder, liveRoom, requireRole, type FolderRow, type RoomRow } from '../kind/roles';
import { isSecureRoom } from '../kind/room-kind';

interface CommentItem {
  fileId: number | null;
  folderId: number | null;
  fileUuid: string | null;
  folderUuid: string | null;
  /** Where the role is read: the folder itself, or the file's folder (undefined: top level). */
  roleFolder: FolderRow | undefined;
}

async function itemOf(ctx: RequestContext, room: RoomRow, target: { fileUuid?: string | undefined; folderUuid?: string | undefined }): Promise<CommentItem> {
  if (target.fileUuid !== undefined) {
    const { file, folder } = await liveFile(ctx.app.db, room, target.fileUuid);
    return { fileId: file.id, folderId: null, fileUuid: file.uuid, folderUuid: null, roleFolder: folder };
  }
  if (target.folderUuid === undefined) throw badRequest('Give either fileUuid or folderUuid', { field: 'fileUuid' });
  const folder = await liveFolder(ctx.app.db, room, target.folderUuid);
  return { fileId: null, folderId: folder.id, fileUuid: null, folderUuid: folder.uuid, roleFolder: folder };
}

/** Plain rooms: the typed text without blanks around it, 1 to ROOM_COMMENT_MAX characters. Secure rooms: a sealed text with its signature. */
function checkedText(room: RoomRow, input: { text: string; signature?: string | undefined }): { text: string; signature: string | null } {
  if (isSecureRoom(room)) {
    if (!input.signature || input.text.length === 0) throw badRequest('A comment in a Secure room is sealed and signed in the browser', { field: 'signature', reason: 'signatureRequired' });
    return { text: input.text, signature: input.signature };
  }
  if (input.signature !== undefined) throw badRequest('Only comments in Secure rooms carry a signature', { field: 'signature' });
  const text = input.text.trim();
  if (text.length === 0) throw badRequest('Field is required', { field: 'text', reason: 'commentEmpty' });
  if (text.length > ROOM_COMMENT_MAX) {
    throw badRequest(`The comment may have at most ${ROOM_COMMENT_MAX} characters`, { field: 'text', reason: 'commentTooLong', maxLength: ROOM_COMMENT_MAX, length: text.length });
  }
  return { text, signature: null };
}

const displayName = (u: { first_name: string | null; last_name: string | null; email: string | null }) => `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || (u.email ?? '');

async function commentRows(ctx: RequestContext, room: RoomRow, where: { id?: number; uuid?: string; item?: CommentItem }) {
  let query = ctx.app.db
    .selectFrom('room_comments')
    .leftJoin('users', 'users.id', 'room_comments.author_id')
    .select(['room_comments.id', 'room_comments.uuid', 'room_comments.folder_id', 'room_comments.file_id', 'room_comments.author_id', 'room_comments.text', 'room_comments.signature'])
    .select(['room_comments.created_at', 'room_comments.updated_at', 'users.uuid as author_uuid', 'users.email', 'users.first_name', 'users.last_name'])
    .where('room_comments.room_id', '=', room.id);
  if (where.id !== undefined) query = query.where('room_comments.id', '=', where.id);
  if (where.uuid !== undefined) query = query.where('room_comments.uuid', '=', where.uuid);
  if (where.item) {
    const { fileId, folderId } = where.item;
    query = fileId !== null ? query.where('room_comments.file_id', '=', fileId) : query.where('room_comments.folder_id', '=', folderId);
  }
  return query.orderBy('room_comments.id', 'asc').execute();
}

type CommentRow = Awaited<ReturnType<typeof commentRows>>[number];

const toComment = (row: CommentRow, item: Pick<CommentItem, 'fileUuid' | 'folderUuid'>, userId: number): RoomComment => ({
  uuid: row.uuid,
  fileUuid: item.fileUuid,
  folderUuid: item.folderUuid,
  author: row.author_uuid ? { uuid: row.author_uuid, name: displayName(row), email: row.email ?? '' } : null,
  text: row.text,
  signature: row.signature,
  own: row.author_id === userId,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

export async function listComments(ctx: RequestContext, roomUuid: string, query: { fileUuid?: string | undefined; folderUuid?: string | undefined }): Promise<RoomCommentList> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  const item = await itemOf(ctx, room, query);
  await requireRole(ctx.app.db, room, ctx.user.id, 'see', item.roleFolder);
  const rows = await commentRows(ctx, room, { item });
  return { comments: rows.map((row) => toComment(row, item, ctx.user.id)) };
}

export async function createComment(
  ctx: RequestContext,
  roomUuid: string,
  input: { fileUuid?: string | undefined; folderUuid?: string | undefined; text: string; signature?: string | undefined },
): Promise<RoomComment> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const item = await itemOf(ctx, room, input);
  await requireRole(app.db, room, user.id, 'edit', item.roleFolder);
  const { text, signature } = checkedText(room, input);
  const now = Date.now();
  const uuid = randomUUID();
  await app.db
    .insertInto('room_comments')
    .values({ uuid, room_id: room.id, folder_id: item.folderId, file_id: item.fileId, author_id: user.id, text, signature, created_at: now, updated_at: now })
    .execute();
  const [created] = await commentRows(ctx, room, { uuid });
  if (!created) throw notFound('Comment not found');
  return toComment(created, item, user.id);
}

/** The comment with its item, or 404 (also when its file or folder is in the trash, or the caller sees nothing there). */
async function liveComment(ctx: RequestContext, room: RoomRow, commentUuid: string) {
  const found = await ctx.app.db.selectFrom('room_comments').select(['id', 'file_id', 'folder_id']).where('room_id', '=', room.id).where('uuid', '=', commentUuid).executeTakeFirst();
  if (!found) throw notFound('Comment not found');
  const fileUuid = found.file_id === null ? undefined : (await ctx.app.db.selectFrom('room_files').select('uuid').where('id', '=', found.file_id).executeTakeFirstOrThrow()).uuid;
  const folderUuid = found.folder_id === null ? undefined : (await ctx.app.db.selectFrom('room_folders').select('uuid').where('id', '=', found.folder_id).executeTakeFirstOrThrow()).uuid;
  const item = await itemOf(ctx, room, fileUuid !== undefined ? { fileUuid } : { folderUuid }).catch(() => {
    throw notFound('Comment not found');
  });
  const role = await requireRole(ctx.app.db, room, ctx.user.id, 'see', item.roleFolder);
  const [row] = await commentRows(ctx, room, { id: found.id });
  if (!row) throw notFound('Comment not found');
  return { row, item, role };
}

export async function updateComment(ctx: RequestContext, roomUuid: string, commentUuid: string, input: { text: string; signature?: string | undefined }): Promise<RoomComment> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { row, item, role } = await liveComment(ctx, room, commentUuid);
  if (!ROOM_PERMISSIONS[role].edit) throw accessDenied();
  if (row.author_id !== user.id) throw new HttpError(403, 'AccessDeniedException', "You don't have sufficient rights, please ask your administrator", { reason: 'notCommentAuthor' });
  const { text, signature } = checkedText(room, input);
  const now = Date.now();
  await app.db.updateTable('room_comments').set({ text, signature, updated_at: now }).where('id', '=', row.id).execute();
  return toComment({ ...row, text, signature, updated_at: now }, item, user.id);
}

export async function deleteComment(ctx: RequestContext, roomUuid: string, commentUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { row, role } = await liveComment(ctx, room, commentUuid);
  const own = row.author_id === user.id && ROOM_PERMISSIONS[role].edit;
  // An OWNER (the one who manages the room's access) removes anyone's comment.
  if (!own && !ROOM_PERMISSIONS[role].manageAccess) throw accessDenied();
  await app.db.deleteFrom('room_comments').where('id', '=', row.id).execute();
}
