import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { markFromDatabase } from './availability';
import type { Database } from './schema';
import { ensurePrivateDirSync, restrictFilesSync } from './private-files';
import { CurrentSchemaPostgresDialect } from './postgres-introspector';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: schema to use (created if missing); tests use one per run. */
  databaseSchema?: string;
  /** PostgreSQL only: connections per server (default 10). */
  poolSize?: number;
  /**
   * PostgreSQL only: told when a connection fails outside a query (PostgreSQL restarted, an idle
   * connection terminated). The connection is dropped and the next query opens a new one; without
   * a listener such an error would end the process.
   */
  onConnectionError?: (error: Error) => void;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** SQLite only: a read run straight on the connection (see HotRead). */
  hotRead?: (sqlText: string) => HotRead;
  close(): Promise<void>;
}

/** A hot read could not run now: the connection is inside a transaction (use the Kysely path, which waits for it). */
export const IN_TRANSACTION = Symbol('in transaction');

/**
 * One read statement, prepared once and run synchronously on the SQLite connection, its row as an
 * array of the selected columns (better-sqlite3's raw mode; building an object of 27 keys in C++ cost
 * more than the indexed join itself) — for the session look-up every signed-in request makes (issue 35
 * §4). It skips Kysely's per-query promise and connection lock, and is safe only where nothing can
 * come between: JavaScript runs one thing at a time, and while the one connection is inside a
 * transaction (a write in flight, not yet committed) it answers IN_TRANSACTION instead of reading
 * what another request has not committed.
 */
export type HotRead = (params: readonly unknown[]) => unknown[] | undefined | typeof IN_TRANSACTION;

const PG_INT8_OID = 20;
const SAFE_SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.databaseSchema, options.poolSize ?? 10, options.onConnectionError ?? (() => undefined));
  ensurePrivateDirSync(options.dataDir);
  const path = join(options.dataDir, 'kuvert.sqlite');
  const file = new SQLite(path);
  // 0600 before the WAL files exist: SQLite gives them the database file's mode.
  restrictFilesSync([path, `${path}-wal`, `${path}-shm`]);
  // WAL lets readers run while one writer writes; busy_timeout waits out short locks.
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  const hotRead = (sqlText: string): HotRead => {
    const statement = file.prepare(sqlText).raw(true);
    return (params) => (file.inTransaction ? IN_TRANSACTION : (statement.get(...params) as unknown[] | undefined));
  };
  return { db, kind: 'sqlite', hotRead, close: () => db.destroy() };
}

/** Distinct SQL texts kept prepared; queries with variable-length IN lists make new texts. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running the small
 * indexed reads of a request. Statements are reusable in better-sqlite3 and Kysely
 * runs one query at a time on its single connection, so a small LRU of them is safe.
 */
function withStatementCache(file: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(sqlText: string): SQLite.Statement {
      let statement = cache.get(sqlText);
      if (statement) {
        cache.delete(sqlText); // re-insert: most recently used last
      } else {
        statement = file.prepare(sqlText);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sqlText, statement);
      return statement;
    },
  };
}

/** A query waits this long for a free connection, then fails (503), rather than hanging. */
const POOL_CONNECT_TIMEOUT_MS = 10_000;

async function openPostgres(url: string, schema: string | undefined, poolSize: number, onConnectionError: (error: Error) => void): Promise<DatabaseHandle> {
  if (schema !== undefined && !SAFE_SCHEMA.test(schema)) throw new Error(`Invalid database schema name: ${schema}`);
  if (schema) {
    // The schema must exist before search_path can point at it.
    const admin = new pg.Client({ connectionString: url });
    admin.on('error', onConnectionError);
    await admin.connect().catch((error: unknown) => Promise.reject(markFromDatabase(error)));
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Epoch-millisecond columns are bigint; they fit a JS number, so read them as numbers.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection that fails is removed by the pool, which then emits 'error'; a connection in
  // use (a transaction) emits it on the client. Either way the query in flight fails by itself.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    // A query's socket error (ECONNRESET) is marked as the database's, as is a failed connect below.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(markFromDatabase(error))) : result;
    };
  });
  const marked = { connect: () => pool.connect().catch((error: unknown) => Promise.reject(markFromDatabase(error))), end: () => pool.end() };
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: marked }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Drops a test schema (PostgreSQL only). */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  if (!SAFE_SCHEMA.test(schema)) throw new Error(`Invalid database schema name: ${schema}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Which database a migration runs on, for the few statements that differ. */
export function databaseKindOf(db: Kysely<unknown>): DatabaseKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Checks the connection (health check, start-up). */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
