import { z } from 'zod';
import { SecurityLevelSchema } from './deliveries';

/**
 * Sender groups and per-user sender settings (SPEC §3: the administrator "sets group settings
 * controlling which security levels a user may send with"; licensed senders). Our design, all
 * ROLE_ADMIN:
 *
 * | call | what |
 * |---|---|
 * | GET    /admin/sender-groups | every group with its levels and member count, by name |
 * | POST   /admin/sender-groups | `{name, levels}` → 201 `{group}`; a taken name → 409 |
 * | PATCH  /admin/sender-groups/{groupUuid} | `{name?, levels?}` → `{group}` (rename, set levels) |
 * | DELETE /admin/sender-groups/{groupUuid} | 204; its members fall back to the global levels |
 * | PATCH  /admin/users/{userUuid}/sender | `{licensed?, senderGroupUuid?}` (null = no group) → the `AdminUser` |
 *
 * A group member may send with the levels both the group and the global `allowSecurityLevel1..4`
 * allow; the minimal level is the first of them. `GET /delivery/send/config` answers each caller's own.
 */
export const SENDER_GROUP_PATHS = {
  list: '/admin/sender-groups',
  one: (groupUuid: string) => `/admin/sender-groups/${encodeURIComponent(groupUuid)}`,
  oneRoute: '/admin/sender-groups/:groupUuid',
  userSender: (userUuid: string) => `/admin/users/${encodeURIComponent(userUuid)}/sender`,
  userSenderRoute: '/admin/users/:userUuid/sender',
} as const;

/** Longest group name: a table cell and a select option. */
export const MAX_SENDER_GROUP_NAME = 100;

const LevelsSchema = z
  .array(SecurityLevelSchema)
  .min(1)
  .max(4)
  .refine((levels) => new Set(levels).size === levels.length, { message: 'Each level once' });

export const SenderGroupSchema = z
  .object({
    groupUuid: z.string(),
    name: z.string(),
    /** SPEC §4 wire values, ascending. */
    levels: z.array(SecurityLevelSchema),
    memberCount: z.number().int(),
  })
  .meta({ id: 'SenderGroup' });
export type SenderGroup = z.infer<typeof SenderGroupSchema>;

export const SenderGroupListSchema = z.object({ groups: z.array(SenderGroupSchema) }).meta({ id: 'SenderGroupList' });
export type SenderGroupList = z.infer<typeof SenderGroupListSchema>;

export const CreateSenderGroupBodySchema = z
  .object({ name: z.string().trim().min(1).max(MAX_SENDER_GROUP_NAME), levels: LevelsSchema })
  .strict()
  .meta({ id: 'CreateSenderGroupBody' });
export type CreateSenderGroupBody = z.infer<typeof CreateSenderGroupBodySchema>;

export const UpdateSenderGroupBodySchema = z
  .object({ name: z.string().trim().min(1).max(MAX_SENDER_GROUP_NAME).optional(), levels: LevelsSchema.optional() })
  .strict()
  .meta({ id: 'UpdateSenderGroupBody' });
export type UpdateSenderGroupBody = z.infer<typeof UpdateSenderGroupBodySchema>;

export const SenderGroupResponseSchema = z.object({ group: SenderGroupSchema }).meta({ id: 'SenderGroupResponse' });

export const SenderGroupParamsSchema = z.object({ groupUuid: z.string().max(64) }).strict();
export const UserParamsSchema = z.object({ userUuid: z.string().max(64) }).strict();

export const UpdateUserSenderBodySchema = z
  .object({ licensed: z.boolean().optional(), senderGroupUuid: z.string().max(64).nullable().optional() })
  .strict()
  .meta({ id: 'UpdateUserSenderBody' });
export type UpdateUserSenderBody = z.infer<typeof UpdateUserSenderBodySchema>;
