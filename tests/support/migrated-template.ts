// Test servers start on a copy of one migrated database instead of running every migration again.
// Running the ~50 migrations costs ~0.5 s per server on SQLite and 1–4 s on PostgreSQL (each one a
// transaction of DDL statements), and the suites start several hundred servers. Each process
// migrates once (the real `migrateToLatest`, so the copy is exactly what a first start makes), then:
// - SQLite: copies the checkpointed database file into the new server's data folder;
// - PostgreSQL: replays `pg_dump` of the migrated schema (tables, rows of Kysely's bookkeeping,
//   sequences, constraints) under the new schema's name, in one round trip.
// The server then starts as usual and finds nothing left to migrate. Migrations are still run
// for real: here once per process, and by every test that starts on an older or its own database.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { dropPostgresSchema, openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';

const SQLITE_FILE = 'kuvert.sqlite';

let sqliteTemplate: Promise<string> | undefined;

/** Puts a fully migrated SQLite database into `dataDir` (which must not hold one yet). */
export async function copyMigratedSqlite(dataDir: string): Promise<void> {
  sqliteTemplate ??= migrateSqliteTemplate();
  await copyFile(await sqliteTemplate, join(dataDir, SQLITE_FILE));
}

async function migrateSqliteTemplate(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kuvert-template-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const handle = await openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
  } finally {
    // Closing the last connection checkpoints the WAL into the file and removes it: one file to copy.
    await handle.close();
  }
  return join(dir, SQLITE_FILE);
}

const PLACEHOLDER = '__kuvert_template_schema__';
const templateScripts = new Map<string, Promise<string>>();

/** Creates `schema` in the database at `url` as a fully migrated Kuvert schema. */
export async function createMigratedSchema(url: string, schema: string): Promise<void> {
  let script = templateScripts.get(url);
  if (!script) {
    script = dumpMigratedSchema(url);
    templateScripts.set(url, script);
    // A failed dump is not kept: the next server tries again (and reports its own error).
    script.catch(() => templateScripts.delete(url));
  }
  const sql = (await script).replaceAll(PLACEHOLDER, schema);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function dumpMigratedSchema(url: string): Promise<string> {
  // A name no table, column or value contains, so replacing it below touches only the schema.
  const template = `kuvert_template_${process.pid}_${randomBytes(6).toString('hex')}`;
  const handle = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), databaseSchema: template, poolSize: 2 });
  try {
    await migrateToLatest(handle.db, template);
  } finally {
    await handle.close();
  }
  try {
    const { stdout } = await promisify(execFile)('pg_dump', ['--dbname', url, '--schema', template, '--inserts', '--no-owner', '--no-privileges', '--no-comments'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return (
      stdout
        .split('\n')
        // psql meta-commands (newer pg_dump writes `\restrict <key>` around the script) are not SQL.
        .filter((line) => !line.startsWith('\\'))
        .join('\n')
        .replaceAll(template, PLACEHOLDER)
    );
  } finally {
    await dropPostgresSchema(url, template);
  }
}
