import { z } from 'zod';

/**
 * In-app notices (issue 32 §1; server/README "Room notices"): what the room mails say, kept for the
 * signed-in user and shown under the bell in the header. Only the own notices; another user's is 404.
 *
 * | GET /notices?page&pageSize | signed-in user | own notices, newest first, with the unread count |
 * | POST /notices/{noticeUuid}/read | signed-in user | marks one read (204) |
 * | POST /notices/read-all | signed-in user | marks all read (204) |
 *
 * A Secure room's notice never names the room (`roomName` null, `secure` true), as in the mails.
 */
export const NOTICE_PATHS = {
  list: '/notices',
  read: (noticeUuid: string) => `/notices/${noticeUuid}/read`,
  readAll: '/notices/read-all',
} as const;

export const NOTICE_KINDS = ['roomAdded', 'roomKeyWaiting', 'roomKeyGranted'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NoticeSchema = z
  .object({
    uuid: z.string().uuid(),
    kind: z.enum(NOTICE_KINDS),
    roomUuid: z.string().uuid(),
    /** True for a Secure room: open it under /secure-rooms, and it is never named. */
    secure: z.boolean(),
    roomName: z.string().nullable(),
    /** Who did it (roomAdded, roomKeyGranted) or who waits (roomKeyWaiting): a display name. */
    actorName: z.string().nullable(),
    /** The role given (roomAdded). */
    role: z.string().nullable(),
    createdAt: z.string(),
    read: z.boolean(),
  })
  .meta({ id: 'Notice' });
export type Notice = z.infer<typeof NoticeSchema>;

export const NoticeListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict()
  .meta({ id: 'NoticeListQuery' });
export type NoticeListQuery = z.input<typeof NoticeListQuerySchema>;

export const NoticeListSchema = z
  .object({
    items: z.array(NoticeSchema),
    /** Unread notices of the user in all (the bell's count). */
    unread: z.number().int(),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .meta({ id: 'NoticeList' });
export type NoticeList = z.infer<typeof NoticeListSchema>;

export const NoticeParamsSchema = z.object({ noticeUuid: z.string().uuid() }).strict();
