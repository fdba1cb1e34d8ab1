// The inline preview of a room file (SPEC §2 "open preview", §6: PREVIEWER and up). Decision
// (server/README "Preview and editing"): the browser renders the bytes itself — images, PDF,
// audio/video, text, Markdown, CSV, JSON (web/features/rooms/preview/) — so the server only serves
// them inline, sandboxed (CSP `sandbox`: no script, no same origin), never stored (no-store), with
// the content type from our list (a text kind always as UTF-8 of that kind, never the stored type),
// with Range (206: media seeks) and a strong ETag of the content (the editor's If-Match, room-preview.ts).
// Other types answer 415 `previewNotSupported`; the download route keeps refusing PREVIEWERs. Blocked
// files (virus scan) are refused like downloads. A Secure room's preview is its ciphertext (secure-preview.ts).
import { bareMimeType } from '@shared/contract/file-policy';
import { PREVIEW_TEXT_EXTENSIONS, ROOM_PREVIEW_TYPES } from '@shared/contract/room-ops';
import { contentEtag } from '@shared/contract/room-preview';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { detectStoredType, type DetectedType } from '../../uploads/content-type';
import { sendStoredFile } from '../../uploads/send';
import { recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile, type FileRow } from '../kind/file-rows';
import { liveRoom, requireRole } from '../kind/roles';
import { refuseUnlessScanned } from './scan';
import { requireRoomKind } from '../kind/room-kind';

const PREVIEWABLE: readonly string[] = ROOM_PREVIEW_TYPES;
const TEXT_KINDS: readonly string[] = ['text/plain', 'text/csv', 'text/markdown', 'application/json'];

/** The text kind a file declares, or — declared as nothing or as bytes — the one its name's extension says. */
function declaredTextKind(mimeType: string, name: string): string | null {
  const bare = bareMimeType(mimeType);
  if (TEXT_KINDS.includes(bare)) return bare;
  if (bare !== '' && bare !== 'application/octet-stream') return null;
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (ext && PREVIEW_TEXT_EXTENSIONS[ext]) ?? null;
}

/**
 * The type the preview answers with, or null when the browser is not trusted to render it: from
 * the bytes (`detected`, content-type.ts) wherever they have a signature — an image, PDF or media
 * file only when the bytes are one, whatever was declared —; a text kind only when the bytes show no
 * binary type, and then always as UTF-8 of that kind.
 */
export function previewType(mimeType: string, detected: DetectedType | null, name = ''): string | null {
  if (detected) return PREVIEWABLE.includes(detected.mime) && !TEXT_KINDS.includes(detected.mime) ? detected.mime : null;
  const text = declaredTextKind(mimeType, name);
  return text ? `${text}; charset=utf-8` : null;
}

/** Headers every preview answer carries besides sendStoredFile's: the content's ETag. */
export function previewHeaders(reply: FastifyReply, file: Pick<FileRow, 'sha256'>): void {
  if (file.sha256) void reply.header('etag', contentEtag(file.sha256));
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
  const contentType = previewType(file.mime_type, await detectStoredType(app.blobs, layout, keyOf), file.name);
  if (!contentType) {
    throw new HttpError(415, 'UnsupportedMediaTypeException', 'This file type cannot be previewed; images, PDF, audio, video and text files can', {
      reason: 'previewNotSupported',
      mimeType: file.mime_type,
    });
  }
  previewHeaders(reply, file);
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
