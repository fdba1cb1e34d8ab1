import { hash, randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import { DAY_MS } from '@shared/contract/reports';
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
interface SessionColumns {
  s_id: string;
  s_csrf_token: string;
  s_created_at: number;
  s_last_seen_at: number;
  s_expires_at: number;
  s_kind: string;
}

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
  /** Like resolve, with the session's user in the same query (every signed-in request needs both). */
  resolveWithUser(token: string): Promise<{ session: SessionRow; user: UserRow } | undefined>;
  delete(token: string): Promise<void>;
  deleteAllForUser(userId: number): Promise<void>;
  purgeExpired(): Promise<number>;
}

// One-shot hash: cheaper than createHash().update().digest() on every signed-in request (issue 35 §4).
export const hashSessionToken = (token: string) => hash('sha256', token, 'hex');
const randomToken = () => randomBytes(TOKEN_BYTES).toString('base64url');

/**
 * The user's columns of the joined row, named one by one: an object rest (`{ s_id, …, ...user }`)
 * copies the 27 keys through V8's slow generic path, ~2 µs of every signed-in request (issue 35 §4).
 * UserRow has no optional column, so the type check refuses this literal when a column is added.
 */
function userOf(r: UserRow): UserRow {
  return {
    id: r.id,
    uuid: r.uuid,
    username: r.username,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    password_hash: r.password_hash,
    roles: r.roles,
    language: r.language,
    disabled: r.disabled,
    email_verified: r.email_verified,
    totp_secret: r.totp_secret,
    totp_pending_secret: r.totp_pending_secret,
    totp_required: r.totp_required,
    created_at: r.created_at,
    updated_at: r.updated_at,
    licensed: r.licensed,
    sender_group_id: r.sender_group_id,
    terms_accepted_version: r.terms_accepted_version,
    terms_accepted_at: r.terms_accepted_at,
    storage_quota: r.storage_quota,
  };
}

export function createSessionsStore(db: Kysely<Database>, now: () => number = Date.now): SessionsStore {
  // Hand-written SQL, compiled once (placeholders as the dialect writes them): this runs on every
  // signed-in request, and building the aliased join through Kysely's query builder cost several
  // times the query; compiling the template again on each request cost ~3 % of a GET /user (issue 35 §4).
  const sessionWithUser = sql`
    select u.*, s.id as s_id, s.csrf_token as s_csrf_token, s.created_at as s_created_at,
           s.last_seen_at as s_last_seen_at, s.expires_at as s_expires_at, s.kind as s_kind
    from sessions s join users u on u.id = s.user_id
    where s.id = ${''}`.compile(db);
  /** Drops an expired session; slides a live one's idle time. False when expired. */
  async function checkAndTouch(row: SessionRow): Promise<boolean> {
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
      return (await checkAndTouch(row)) ? row : undefined;
    },
    async resolveWithUser(token) {
      if (!token || token.length > 200) return undefined;
      const { rows } = await db.executeQuery<UserRow & SessionColumns>(CompiledQuery.raw(sessionWithUser.sql, [hashSessionToken(token)]));
      const row = rows[0];
      if (!row) return undefined;
      const session: SessionRow = {
        id: row.s_id,
        user_id: row.id,
        csrf_token: row.s_csrf_token,
        created_at: row.s_created_at,
        last_seen_at: row.s_last_seen_at,
        expires_at: row.s_expires_at,
        kind: row.s_kind,
      };
      return (await checkAndTouch(session)) ? { session, user: userOf(row) } : undefined;
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
