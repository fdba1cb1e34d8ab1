import { hash, randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import { DAY_MS } from '@shared/contract/reports';
import { IN_TRANSACTION, type HotRead } from '../db/database';
import type { Database, SessionsTable, UsersTable } from '../db/schema';
import { recordActiveDay } from './active-days';

/** Signed out after this long without a request (keep-alive runs every 60 s while the app is open). */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
/** Signed out after this long whatever the activity: a stolen cookie does not live forever. */
export const SESSION_ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
/** Last-seen is written at most this often, so busy sessions do not write on every request. */
const TOUCH_INTERVAL_MS = 15_000;
/** 256-bit tokens: unguessable, and only their hash is stored. */
const TOKEN_BYTES = 32;

export type SessionRow = Selectable<SessionsTable>;

/**
 * How a session's token travels: `cookie` in KUVERT_SESSION (web client), `addin` as
 * `Authorization: Bearer` (the Outlook add-in, whose web views partition or block cookies).
 */
export const SESSION_KINDS = ['cookie', 'addin', 'submit'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];
type UserRow = Selectable<UsersTable>;

export interface NewSession {
  /** Goes into the cookie; never stored. */
  token: string;
  csrfToken: string;
  session: SessionRow;
}

export interface SessionsStore {
  create(userId: number, kind?: SessionKind): Promise<NewSession>;
  /** The live session for a cookie token (and slides its idle expiry), or undefined. */
  resolve(token: string): Promise<SessionRow | undefined>;
  /**
   * Like resolve, with the session's user in the same query (every signed-in request needs both).
   * Without a write to make (nearly always) and with a hot read (SQLite), it answers at once, not
   * with a promise.
   */
  resolveWithUser(token: string): Resolved | Promise<Resolved>;
  delete(token: string): Promise<void>;
  deleteAllForUser(userId: number): Promise<void>;
  purgeExpired(): Promise<number>;
}

// One-shot hash: cheaper than createHash().update().digest() on every signed-in request (issue 35 §4).
export const hashSessionToken = (token: string) => hash('sha256', token, 'hex');
const randomToken = () => randomBytes(TOKEN_BYTES).toString('base64url');

/**
 * The columns of the session look-up, in the order of its row (raw mode on SQLite gives an array):
 * every user column (handlers take the whole user row into their services: `licensed`,
 * `sender_group_id`, `storage_quota`, the terms, the TOTP state, …), then the session's own.
 * `JoinedRow` is that row's type; `resolvedOf` names every key of UserRow, which has no optional
 * column, so the type check fails when a column is added to the table and not read here. The three
 * lists keep one order: `sessions-store.test` compares the look-up with `selectAll()` on both paths.
 */
const USER_COLUMNS = [
  'id', 'uuid', 'username', 'email', 'first_name', 'last_name', 'password_hash', 'roles', 'language', 'disabled', 'email_verified',
  'totp_secret', 'totp_pending_secret', 'totp_required', 'created_at', 'updated_at', 'licensed', 'sender_group_id',
  'terms_accepted_version', 'terms_accepted_at', 'storage_quota',
] as const satisfies ReadonlyArray<keyof UserRow>;
const SESSION_COLUMNS = ['id', 'csrf_token', 'created_at', 'last_seen_at', 'expires_at', 'kind'] as const satisfies ReadonlyArray<keyof SessionRow>;
/** Column aliases of the joined row (`s_…` for the session's), the keys of an object row (PostgreSQL). */
const JOINED_ALIASES: readonly string[] = [...USER_COLUMNS, ...SESSION_COLUMNS.map((c) => `s_${c}`)];
type JoinedRow = readonly [
  id: number, uuid: string, username: string, email: string, first_name: string, last_name: string, password_hash: string,
  roles: string, language: string, disabled: number, email_verified: number, totp_secret: string | null,
  totp_pending_secret: string | null, totp_required: number, created_at: number, updated_at: number, licensed: number,
  sender_group_id: number | null, terms_accepted_version: number | null, terms_accepted_at: number | null,
  storage_quota: number | null,
  s_id: string, s_csrf_token: string, s_created_at: number, s_last_seen_at: number, s_expires_at: number, s_kind: string,
];

/** Session and user of one joined row, each an object literal (V8 builds these in its fast path). */
function resolvedOf(r: JoinedRow): { session: SessionRow; user: UserRow } {
  const user: UserRow = {
    id: r[0], uuid: r[1], username: r[2], email: r[3], first_name: r[4], last_name: r[5], password_hash: r[6], roles: r[7],
    language: r[8], disabled: r[9], email_verified: r[10], totp_secret: r[11], totp_pending_secret: r[12], totp_required: r[13],
    created_at: r[14], updated_at: r[15], licensed: r[16], sender_group_id: r[17], terms_accepted_version: r[18],
    terms_accepted_at: r[19], storage_quota: r[20],
  };
  const session: SessionRow = { id: r[21], user_id: r[0], csrf_token: r[22], created_at: r[23], last_seen_at: r[24], expires_at: r[25], kind: r[26] };
  return { session, user };
}

type Resolved = { session: SessionRow; user: UserRow } | undefined;

/**
 * `hotRead` (SQLite, db/database.ts): the session look-up runs as a statement prepared once, straight
 * on the connection, and a request with nothing to write gets its answer without a promise (issue 35 §4).
 * Nothing is cached across requests: every request reads the session and user rows as they are now.
 */
export function createSessionsStore(db: Kysely<Database>, now: () => number = Date.now, hotRead?: (sqlText: string) => HotRead): SessionsStore {
  // Hand-written SQL, compiled once (placeholders as the dialect writes them): this runs on every
  // signed-in request, and building the aliased join through Kysely's query builder cost several
  // times the query; compiling the template again on each request cost ~3 % of a GET /user (issue 35 §4).
  const columns = [...USER_COLUMNS.map((c) => `u.${c}`), ...SESSION_COLUMNS.map((c) => `s.${c} as s_${c}`)].join(', ');
  const sessionWithUser = sql`select ${sql.raw(columns)} from sessions s join users u on u.id = s.user_id where s.id = ${''}`.compile(db);
  const hot = hotRead?.(sessionWithUser.sql);

  /** Drops an expired session; slides a live one's idle time (at most every TOUCH_INTERVAL_MS). False when expired. */
  async function expireOrTouch(row: SessionRow): Promise<boolean> {
    const t = now();
    if (t >= row.expires_at || t - row.last_seen_at >= SESSION_IDLE_TIMEOUT_MS) {
      await db.deleteFrom('sessions').where('id', '=', row.id).execute();
      return false;
    }
    if (t - row.last_seen_at >= TOUCH_INTERVAL_MS) {
      await db.updateTable('sessions').set({ last_seen_at: t }).where('id', '=', row.id).execute();
      // The active-users report: a session used on a new UTC day marks its user active that day.
      if (Math.floor(t / DAY_MS) !== Math.floor(row.last_seen_at / DAY_MS)) await recordActiveDay(db, row.user_id, t);
      row.last_seen_at = t;
    }
    return true;
  }
  /** True when the session is live and recently touched: nothing to write. */
  function freshAndLive(row: SessionRow): boolean {
    const t = now();
    return t < row.expires_at && t - row.last_seen_at < TOUCH_INTERVAL_MS;
  }
  function checked(resolved: { session: SessionRow; user: UserRow }): Resolved | Promise<Resolved> {
    if (freshAndLive(resolved.session)) return resolved;
    return expireOrTouch(resolved.session).then((live) => (live ? resolved : undefined));
  }
  async function viaKysely(id: string): Promise<Resolved> {
    const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(sessionWithUser.sql, [id]));
    const row = rows[0];
    return row ? checked(resolvedOf(JOINED_ALIASES.map((alias) => row[alias]) as unknown as JoinedRow)) : undefined;
  }

  return {
    async create(userId, kind = 'cookie') {
      const token = randomToken();
      const t = now();
      const session: SessionRow = {
        id: hashSessionToken(token),
        user_id: userId,
        csrf_token: randomToken(),
        created_at: t,
        last_seen_at: t,
        expires_at: t + SESSION_ABSOLUTE_TIMEOUT_MS,
        kind,
      };
      await db.insertInto('sessions').values(session).execute();
      await recordActiveDay(db, userId, t);
      return { token, csrfToken: session.csrf_token, session };
    },
    async resolve(token) {
      if (!token || token.length > 200) return undefined;
      const id = hashSessionToken(token);
      const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      return (await expireOrTouch(row)) ? row : undefined;
    },
    resolveWithUser(token) {
      if (!token || token.length > 200) return undefined;
      const id = hashSessionToken(token);
      if (!hot) return viaKysely(id);
      const row = hot([id]);
      if (row === IN_TRANSACTION) return viaKysely(id);
      return row ? checked(resolvedOf(row as unknown as JoinedRow)) : undefined;
    },
    async delete(token) {
      await db.deleteFrom('sessions').where('id', '=', hashSessionToken(token)).execute();
    },
    async deleteAllForUser(userId) {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
    async purgeExpired() {
      const t = now();
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', t), eb('last_seen_at', '<=', t - SESSION_IDLE_TIMEOUT_MS)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
