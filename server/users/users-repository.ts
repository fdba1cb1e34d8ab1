import { randomUUID } from 'node:crypto';
import { ROLE_NAMES, reduceLanguage, type Language, type RoleName } from '@shared/contract/constants';
import type { User } from '@shared/contract/user';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, UsersTable } from '../db/schema';

export type UserRow = Selectable<UsersTable>;

export const DEFAULT_USER_ROLES: readonly RoleName[] = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER'];
export const ADMIN_ROLES: readonly RoleName[] = ['ROLE_ADMIN', 'ROLE_USER_ADMIN', ...DEFAULT_USER_ROLES];

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  firstName?: string;
  lastName?: string;
  roles: readonly RoleName[];
  language?: Language;
  emailVerified?: boolean;
  totpRequired?: boolean;
  disabled?: boolean;
  /** Default true; delivery signup makes unlicensed accounts (SPEC §3 licensed senders). */
  licensed?: boolean;
}

export class UserExistsError extends Error {
  override readonly name = 'UserExistsError';
}

export function roleNamesOf(row: Pick<UserRow, 'roles'>): RoleName[] {
  try {
    const parsed: unknown = JSON.parse(row.roles);
    return Array.isArray(parsed) ? parsed.filter((r): r is RoleName => (ROLE_NAMES as readonly string[]).includes(r)) : [];
  } catch {
    return [];
  }
}

/**
 * Whether `actor` may act on `subject`'s account (reset its SecuPass or authentication app): like
 * granting the role, only administrators touch administrators (ROLE_ADMIN, ROLE_ROOT).
 */
export function mayManageAccountOf(actor: Pick<UserRow, 'roles'>, subject: Pick<UserRow, 'roles'>): boolean {
  const subjectRoles = roleNamesOf(subject);
  return roleNamesOf(actor).includes('ROLE_ADMIN') || !(subjectRoles.includes('ROLE_ADMIN') || subjectRoles.includes('ROLE_ROOT'));
}

/** The user as clients see it (contract `User`). */
export function toWireUser(row: UserRow): User {
  return {
    uuid: row.uuid,
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    roleNames: roleNamesOf(row),
    language: reduceLanguage(row.language),
    totpEnabled: row.totp_secret !== null,
  };
}

export interface UsersRepository {
  findById(id: number): Promise<UserRow | undefined>;
  findByUuid(uuid: string): Promise<UserRow | undefined>;
  /**
   * Users ordered by email, paged; `q` matches email, username, first or last name
   * (case-insensitive substring). Each row carries its SecuPass state (`none` without a row).
   */
  list(options: { q?: string | undefined; page: number; pageSize: number }): Promise<{ rows: Array<UserRow & { secupass_state: string }>; total: number }>;
  /** By username or email address, case-insensitively (the login field accepts both). */
  findByLogin(login: string): Promise<UserRow | undefined>;
  create(user: NewUser): Promise<UserRow>;
  update(id: number, changes: Partial<Omit<UserRow, 'id' | 'uuid' | 'created_at'>>): Promise<void>;
  countAdmins(): Promise<number>;
}

export function createUsersRepository(db: Kysely<Database>): UsersRepository {
  const findById = (id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return {
    findById,
    findByUuid: (uuid) => db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst(),
    async list({ q, page, pageSize }) {
      let base = db.selectFrom('users');
      const needle = q?.trim().toLowerCase();
      if (needle) {
        // LIKE with the wildcards of the search text escaped, the same on SQLite and PostgreSQL.
        const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
        base = base.where((eb) => eb.or([like('users.email'), like('users.username'), like('users.first_name'), like('users.last_name')]));
      }
      const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
      const rows = await base
        .leftJoin('secupass', 'secupass.user_id', 'users.id')
        .selectAll('users')
        .select((eb) => eb.fn.coalesce('secupass.state', sql<string>`'none'`).as('secupass_state'))
        .orderBy(sql`lower(users.email)`)
        .orderBy('users.id')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      return { rows, total: Number(total) };
    },
    async findByLogin(login) {
      const needle = login.trim().toLowerCase();
      if (!needle) return undefined;
      // Prefer an exact username match; fall back to the address.
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb(sql`lower(username)`, '=', needle), eb(sql`lower(email)`, '=', needle)]))
        .limit(2)
        .execute();
      return rows.find((r) => r.username.toLowerCase() === needle) ?? rows[0];
    },
    async create(user) {
      const email = user.email.trim().toLowerCase();
      const username = user.username.trim();
      const clash = await db
        .selectFrom('users')
        .select('id')
        .where((eb) =>
          eb.or([
            eb(sql`lower(username)`, 'in', [username.toLowerCase(), email]),
            eb(sql`lower(email)`, 'in', [username.toLowerCase(), email]),
          ]),
        )
        .executeTakeFirst();
      if (clash) throw new UserExistsError('A user with this username or email address exists');
      const now = Date.now();
      try {
        const inserted = await db
          .insertInto('users')
          .values({
            uuid: randomUUID(),
            username,
            email,
            first_name: user.firstName ?? '',
            last_name: user.lastName ?? '',
            password_hash: user.passwordHash,
            roles: JSON.stringify([...new Set(user.roles)]),
            language: user.language ?? 'en',
            disabled: user.disabled ? 1 : 0,
            email_verified: user.emailVerified ? 1 : 0,
            totp_secret: null,
            totp_pending_secret: null,
            totp_required: user.totpRequired ? 1 : 0,
            licensed: user.licensed === false ? 0 : 1,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return (await findById(inserted.id))!;
      } catch (err) {
        // A concurrent insert lost the race against the unique indexes.
        if (/unique/i.test(String((err as Error).message))) throw new UserExistsError('A user with this username or email address exists');
        throw err;
      }
    },
    async update(id, changes) {
      await db
        .updateTable('users')
        .set({ ...changes, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
    },
    async countAdmins() {
      const rows = await db.selectFrom('users').select('roles').execute();
      return rows.filter((r) => roleNamesOf(r).includes('ROLE_ADMIN')).length;
    },
  };
}
