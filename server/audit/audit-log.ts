import type { AuditEntry, AuditLogFilter } from '@shared/contract/audit';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

export interface NewAuditEntry {
  actorUserId: number | null;
  action: string;
  subjectUserId: number | null;
  details?: Record<string, unknown>;
}

export interface AuditLog {
  /** Writes one entry; pass the transaction of the change it records so both commit together. */
  record(entry: NewAuditEntry, trx?: Transaction<Database>): Promise<void>;
  /** Newest first. */
  list(options: AuditLogFilter & { page: number; pageSize: number }): Promise<{ entries: AuditEntry[]; total: number }>;
}

export function createAuditLog(db: Kysely<Database>): AuditLog {
  return {
    async record(entry, trx) {
      await (trx ?? db)
        .insertInto('audit_log')
        .values({
          at: Date.now(),
          actor_user_id: entry.actorUserId,
          action: entry.action,
          subject_user_id: entry.subjectUserId,
          details: JSON.stringify(entry.details ?? {}),
        })
        .execute();
    },
    async list({ page, pageSize, action, user, from, to }) {
      let base = db
        .selectFrom('audit_log')
        .leftJoin('users as actor', 'actor.id', 'audit_log.actor_user_id')
        .leftJoin('users as subject', 'subject.id', 'audit_log.subject_user_id');
      if (action) base = base.where('audit_log.action', '=', action);
      if (from !== undefined) base = base.where('audit_log.at', '>=', from);
      if (to !== undefined) base = base.where('audit_log.at', '<=', to);
      const needle = user?.trim().toLowerCase();
      if (needle) {
        // As the users list searches (users-repository.ts): wildcards of the input escaped, the same on SQLite and PostgreSQL.
        const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
        base = base.where((eb) => eb.or([like('actor.email'), like('subject.email')]));
      }
      const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
      const rows = await base
        .select([
          'audit_log.id',
          'audit_log.at',
          'audit_log.action',
          'audit_log.details',
          'actor.uuid as actor_uuid',
          'actor.email as actor_email',
          'subject.uuid as subject_uuid',
          'subject.email as subject_email',
        ])
        .orderBy('audit_log.at', 'desc')
        .orderBy('audit_log.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      return {
        total: Number(total),
        entries: rows.map((row) => ({
          id: Number(row.id),
          at: Number(row.at),
          action: row.action,
          actor: row.actor_uuid && row.actor_email !== null ? { uuid: row.actor_uuid, email: row.actor_email } : null,
          subject: row.subject_uuid && row.subject_email !== null ? { uuid: row.subject_uuid, email: row.subject_email } : null,
          details: parseDetails(row.details),
        })),
      };
    },
  };
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
