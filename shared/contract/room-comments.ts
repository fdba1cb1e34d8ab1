import { z } from 'zod';

/**
 * Comments on the files and folders of a data room (issue 31 §1; SPEC §2 details sidebar, Comments
 * tab; server/README "Comments, classification and file status"). Every role reads them (PREVIEWER
 * too); OWNERs and EDITORs write (SPEC §6: the roles that may edit), each edits and deletes their own,
 * an OWNER deletes anyone's. Listed oldest first (newest last).
 */

const Uuid = z.string().uuid();

/** A comment is a remark, not a document: 2 000 characters (after blanks around it are dropped). */
export const ROOM_COMMENT_MAX = 2000;
/**
 * What the wire takes: a Secure room's sealed comment is longer than its text (base64 of nonce,
 * ciphertext and tag of up to 4 bytes per character), so the body cap is above ROOM_COMMENT_MAX;
 * a plain comment longer than ROOM_COMMENT_MAX is refused by the server with reason `commentTooLong`.
 */
export const ROOM_COMMENT_WIRE_MAX = 16_384;

export const RoomCommentParamsSchema = z.object({ roomUuid: Uuid, commentUuid: Uuid }).strict();

/** The item the comments are about: exactly one of the two. */
export const RoomCommentsQuerySchema = z
  .object({ fileUuid: Uuid.optional(), folderUuid: Uuid.optional() })
  .strict()
  .refine((q) => (q.fileUuid === undefined) !== (q.folderUuid === undefined), { path: ['fileUuid'], message: 'Give either fileUuid or folderUuid' })
  .meta({ id: 'RoomCommentsQuery' });
export type RoomCommentsQuery = z.input<typeof RoomCommentsQuerySchema>;

const Text = z.string().max(ROOM_COMMENT_WIRE_MAX);

export const CreateRoomCommentBodySchema = z
  .object({
    fileUuid: Uuid.optional(),
    folderUuid: Uuid.optional(),
    /** Plain rooms: the text (1 to ROOM_COMMENT_MAX characters). Secure rooms: the sealed comment. */
    text: Text,
    /** Secure rooms only (required there, refused in plain rooms): the author's signature over the sealed comment. */
    signature: z.string().max(1024).optional(),
  })
  .strict()
  .refine((b) => (b.fileUuid === undefined) !== (b.folderUuid === undefined), { path: ['fileUuid'], message: 'Give either fileUuid or folderUuid' })
  .meta({ id: 'CreateRoomCommentBody' });
export type CreateRoomCommentBody = z.input<typeof CreateRoomCommentBodySchema>;

export const UpdateRoomCommentBodySchema = z
  .object({ text: Text, signature: z.string().max(1024).optional() })
  .strict()
  .meta({ id: 'UpdateRoomCommentBody' });
export type UpdateRoomCommentBody = z.input<typeof UpdateRoomCommentBodySchema>;

export const RoomCommentSchema = z
  .object({
    uuid: z.string(),
    /** The item: a file or a folder (the other null). */
    fileUuid: z.string().nullable(),
    folderUuid: z.string().nullable(),
    /** null: the author's account is gone. */
    author: z.object({ uuid: z.string(), name: z.string(), email: z.string() }).nullable(),
    /** Plain rooms: the text; Secure rooms: the sealed comment (the browser opens it). */
    text: z.string(),
    /** Secure rooms: the author's signature; null in plain rooms. */
    signature: z.string().nullable(),
    /** true: the caller wrote it (may edit it while they may write here). */
    own: z.boolean(),
    createdAt: z.number(),
    /** Differs from createdAt once edited. */
    updatedAt: z.number(),
  })
  .meta({ id: 'RoomComment' });
export type RoomComment = z.infer<typeof RoomCommentSchema>;

export const RoomCommentListSchema = z.object({ comments: z.array(RoomCommentSchema) }).meta({ id: 'RoomCommentList' });
export type RoomCommentList = z.infer<typeof RoomCommentListSchema>;

export const ROOM_COMMENT_PATHS = {
  list: (roomUuid: string) => `/rooms/${roomUuid}/comments`,
  one: (roomUuid: string, commentUuid: string) => `/rooms/${roomUuid}/comments/${commentUuid}`,
} as const;
