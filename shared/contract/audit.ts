import { z } from 'zod';

/**
 * The audit log (our design): security-relevant administrator actions.
 *
 * | call | who | what |
 * |---|---|---|
 * | GET /admin/audit-log?page=&pageSize=&action= | ROLE_ADMIN | entries, newest first |
 */
export const AUDIT_PATHS = {
  adminLog: '/admin/audit-log',
} as const;

/** Actions written so far. */
export const AUDIT_ACTIONS = ['secupass.reset'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditLogQuerySchema = z
  .object({
    /** Only entries of this action. */
    action: z.string().max(100).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict()
  .meta({ id: 'AuditLogQuery' });
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>;

const AuditUserSchema = z.object({ uuid: z.string(), email: z.string() });

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    /** Epoch ms. */
    at: z.number().int(),
    action: z.string(),
    /** Null when the acting user no longer exists. */
    actor: AuditUserSchema.nullable(),
    subject: AuditUserSchema.nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditLogResponseSchema = z
  .object({ entries: z.array(AuditEntrySchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'AuditLogResponse' });
export type AuditLogResponse = z.infer<typeof AuditLogResponseSchema>;
