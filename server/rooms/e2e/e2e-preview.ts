// The preview of a Secure room file (issue 31 §3; server/README "Preview and editing"): the server
// holds only ciphertext, so it serves that — to every role, PREVIEWER too (the download route keeps
// refusing PREVIEWERs) — and the browser decrypts it in the crypto Worker and shows it
// (web/features/rooms/preview/). Range answers 206 like the plain preview; the ETag is the
// ciphertext's SHA-256, which an editor's save names in If-Match (the same 412 as in plain rooms).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../core/request-context';
import { sendStoredFile } from '../../uploads/send';
import { recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile } from '../kind/file-rows';
import { liveRoom, requireRole } from '../kind/roles';
import { previewHeaders } from '../plain/preview';
import { refuseUnlessScanned } from '../plain/scan';
import { requireEncrypted } from './e2e-rooms';

/** A complete GET is logged as `view` (SPEC §4), as in plain rooms. */
export async function previewE2eFile(ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, roomUuid: string, fileUuid: string): Promise<unknown> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  // The role first: a non-member learns nothing of the room, not even its kind (404).
  await requireRole(app.db, room, user.id, 'preview', folder);
  requireEncrypted(room);
  refuseUnlessScanned(file);
  previewHeaders(reply, file);
  // The name stored is sealed: the response names no file.
  const stored = { name: 'preview', mimeType: 'application/octet-stream', layout: layoutOf(file), keyOf: (i: number) => filePartKey(file, i) };
  return sendStoredFile(
    request,
    reply,
    app.blobs,
    stored,
    () => recordActivity(app.db, 'view', user, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: file.name }),
    { inline: true, contentType: 'application/octet-stream' },
  );
}
