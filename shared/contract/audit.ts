import { z } from 'zod';

/**
 * The audit log (our design): security-relevant administrator actions.
 *
 * | call | who | what |
 * |---|---|---|
 * | GET /admin/audit-log?page=&pageSize=&action=&user=&from=&to= | ROLE_ADMIN | entries, newest first |
 * | GET /admin/audit-log/csv?action=&user=&from=&to= | ROLE_ADMIN | the same entries as CSV (UTF-8 with BOM, at most AUDIT_CSV_MAX_ROWS) |
 *
 * `user` matches part of the actor's or the subject's address (case-insensitive); `from`/`to`
 * are epoch ms, both inclusive.
 */
export const AUDIT_PATHS = {
  adminLog: '/admin/audit-log',
  adminLogCsv: '/admin/audit-log/csv',
} as const;

/** The CSV export's cap: newest first, older entries are left out (narrow the filter). */
export const AUDIT_CSV_MAX_ROWS = 10_000;
/** Header row of the CSV export. */
export const AUDIT_CSV_COLUMNS = ['time', 'action', 'actor', 'subject', 'details'] as const;

/** Actions written so far. */
export const AUDIT_ACTIONS = ['secupass.reset'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditLogQuerySchema = z
  .object({
    /** Only entries of this action. */
    action: z.string().max(100).optional(),
    /** Part of the actor's or the subject's address. */
    user: z.string().max(200).optional(),
    /** Entries at or after (epoch ms). */
    from: z.coerce.number().int().min(0).optional(),
    /** Entries at or before (epoch ms). */
    to: z.coerce.number().int().min(0).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict()
  .meta({ id: 'AuditLogQuery' });
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>;

export const AuditLogCsvQuerySchema = AuditLogQuerySchema.omit({ page: true, pageSize: true }).meta({ id: 'AuditLogCsvQuery' });
export type AuditLogFilter = Omit<z.output<typeof AuditLogCsvQuerySchema>, never>;

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
