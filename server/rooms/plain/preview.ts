// The inline preview of a room file (SPEC §2 "open preview", §6: PREVIEWER and up). Decision
// (server/README "Data rooms"): the browser renders the bytes itself — images, PDF, text — so the
// server only serves them inline, sandboxed (CSP `sandbox`: no script, no same origin), never
// stored (no-store), with the content type from our list (never the stored one for text: always
// `charset=utf-8` plain text). Other types answer 415 `previewNotSupported`; the download route keeps
// refusing PREVIEWERs. Blocked files (virus scan) are refused like downloads.
import { bareMimeType } from '@shared/contract/file-policy';
import { ROOM_PREVIEW_TYPES } from '@shared/contract/room-ops';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { detectStoredType, type DetectedType } from '../../uploads/content-type';
import { sendStoredFile } from '../../uploads/send';
import { recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile } from '../kind/file-rows';
import { liveRoom, requireRole } from '../kind/roles';
import { refuseUnlessScanned } from './scan';
import { requireRoomKind } from '../kind/room-kind';

const PREVIEWABLE: readonly string[] = ROOM_PREVIEW_TYPES;

/**
 * The type the preview answers with, or null when the browser is not trusted to render it: from
 * the bytes (`detected`, content-type.ts) wherever they have a signature — an image or PDF only
 * when the bytes are one, whatever was declared —; a declared text type only when the bytes show
 * no binary type, and then always as plain UTF-8 text.
 */
export function previewType(mimeType: string, detected: DetectedType | null): string | null {
  if (detected) return PREVIEWABLE.includes(detected.mime) && !detected.mime.startsWith('text/') ? detected.mime : null;
  const bare = bareMimeType(mimeType);
  return PREVIEWABLE.includes(bare) && bare.startsWith('text/') ? 'text/plain; charset=utf-8' : null;
}

/** A complete GET is logged as `view` (SPEC §4). */
export async function previewFile(ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, roomUuid: string, fileUuid: string): Promise<unknown> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  await requireRole(app.db, room, user.id, 'preview', folder);
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): its files are previewed in the browser, under Secure rooms');
  refuseUnlessScanned(file);
  const layout = layoutOf(file);
  const keyOf = (i: number) => filePartKey(file, i);
  const contentType = previewType(file.mime_type, await detectStoredType(app.blobs, layout, keyOf));
  if (!contentType) {
    throw new HttpError(415, 'UnsupportedMediaTypeException', 'This file type cannot be previewed; images, PDF and text files can', {
      reason: 'previewNotSupported',
      mimeType: file.mime_type,
    });
  }
  const stored = { name: file.name, mimeType: file.mime_type, layout, keyOf };
  return sendStoredFile(
    request,
    reply,
    app.blobs,
    stored,
    () => recordActivity(app.db, 'view', user, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: file.name }),
    { inline: true, contentType },
  );
}
