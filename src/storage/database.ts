/**
 * The one query layer: Kysely over SQLite (better-sqlite3, WAL) by default,
 * PostgreSQL (pg) when DATABASE_URL says so. Migrations run at start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import type SQLiteModule from 'better-sqlite3';
import { SQLite, pg } from './drivers.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * Runs `work` in a transaction: a new one on the database, or, when `db` is
 * already a transaction (a store used inside a unit of work), that one.
 */
export function atomically<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The connection pool now (PostgreSQL); undefined for SQLite, which has one connection. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = new URL('./migrations/', import.meta.url);

/** A migration's file name: a number that orders it, then what it does (`0091_job_file_parts.ts`). */
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.(?:ts|js)$/;

/**
 * The migrations in `folder`, by name (the file name without its extension), in the order they run:
 * every module of the folder, sorted by name. Nothing lists them: adding a file is adding a
 * migration. A module whose name does not have the migration form (a typo, a helper put there) is
 * refused rather than skipped, since a skipped migration would leave the database behind the code.
 * Names are what the migration table records: never rename or edit a released one. Each module is
 * imported only when the Migrator asks for it (see migrateToLatest).
 *
 * The folder is `./migrations/` beside this module: src/storage/migrations/*.ts under tsx,
 * dist/storage/migrations/*.js when compiled, and dist/server/migrations/*.js in the bundled
 * server, where scripts/build-server.mjs makes each migration an entry point of its own (sharing
 * the bundle's chunks, so that Kysely is the same module).
 */
export function discoverMigrations(folder: URL = MIGRATIONS_FOLDER): Map<string, () => Promise<Migration>> {
  const migrations = new Map<string, () => Promise<Migration>>();
  for (const file of fs.readdirSync(folder)) {
    // Declaration files and source maps of a compiled folder are not modules.
    if (file.endsWith('.d.ts') || file.endsWith('.map') || !/\.(?:ts|js)$/.test(file)) continue;
    const name = MIGRATION_FILE.exec(file)?.[1];
    if (name === undefined) throw new Error(`${fileURLToPath(new URL(file, folder))} is not named as a migration (NNNN_what_it_does.ts)`);
    if (migrations.has(name)) throw new Error(`two modules of ${fileURLToPath(folder)} are the migration ${name}`);
    const url = new URL(file, folder).href;
    migrations.set(name, () => import(url) as Promise<Migration>);
  }
  // Kysely's Migrator runs them in this order too (it sorts the names).
  return new Map([...migrations].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The migrations of each folder read so far: this version's is read once per process. */
const discovered = new Map<string, Map<string, () => Promise<Migration>>>();
function knownMigrations(folder: URL): Map<string, () => Promise<Migration>> {
  let known = discovered.get(folder.href);
  if (known === undefined) discovered.set(folder.href, (known = discoverMigrations(folder)));
  return known;
}

class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly folder: URL) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const known = [...knownMigrations(this.folder)];
    const modules = await Promise.all(known.map(([, load]) => load()));
    return Object.fromEntries(known.map(([name], i) => [name, modules[i]!]));
  }
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  sqliteFile: string;
  /**
   * Errors of idle PostgreSQL connections (a server restart, a terminated
   * backend). Without a listener pg would crash the process; the pool replaces
   * the connection on its next use.
   */
  onIdleError?: (error: Error) => void;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new (pg().Pool)({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', options.onIdleError ?? (() => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new (SQLite())(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Planner statistics for the tables that lack them or changed much since (SQLite's advice for a
  // long-lived connection), from a bounded sample: without them a filtered user search walks the
  // tenant in creation order instead of using the email index. The hourly purge refreshes them.
  sqlite.pragma('analysis_limit = 1000');
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  SQLITE_HANDLES.set(db, sqlite);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Kysely's table of executed migrations (the Migrator's default name). */
const MIGRATION_TABLE = 'kysely_migration';

/** The names in Kysely's migration table; undefined when there is no such table yet (a new database). */
async function executedMigrations(db: Db): Promise<string[] | undefined> {
  try {
    return (await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db)).rows.map((r) => r.name);
  } catch {
    return undefined;
  }
}

/**
 * A database written by a newer version (a migration this one does not know): refused before
 * anything is changed, naming the migrations, so that an older version started by mistake (a
 * rollback, an old image) never half-migrates or misreads it.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknownMigrations: string[]) {
    super(
      `the database was written by a newer version of Gatehouse: it has run the migration${unknownMigrations.length > 1 ? 's' : ''} ` +
        `${unknownMigrations.join(', ')}, which this version does not know. Upgrade Gatehouse to that version (or later) to use it; nothing was changed`,
    );
    this.name = 'NewerDatabaseError';
  }
}

/**
 * Whether the database has run exactly the migrations of this version: then there is nothing to do,
 * and the migration modules are not even imported (the usual restart). Anything else (a new
 * database, a pending migration) goes to Kysely's Migrator; a name this version does not know is
 * refused here. No lock is needed for this read: on PostgreSQL each run of the Migrator commits its
 * migrations and their rows in one transaction, under an advisory lock (so processes started
 * together migrate one after the other, and the later one finds nothing left to do).
 */
async function isAtLatest(db: Db, folder: URL): Promise<boolean> {
  const rows = await executedMigrations(db);
  if (rows === undefined) return false;
  const executed = new Set(rows);
  const known = knownMigrations(folder);
  const unknown = rows.filter((name) => !known.has(name)).sort();
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  return executed.size === known.size && [...known.keys()].every((name) => executed.has(name));
}

/** The better-sqlite3 database under each SQLite Kysely that `openDatabase` opened. */
const SQLITE_HANDLES = new WeakMap<Db, SQLiteModule.Database>();

/**
 * The better-sqlite3 database under `db` when it is an SQLite database opened
 * by `openDatabase` (not a transaction, not PostgreSQL), for a store's hot
 * path that reuses a prepared statement. Use it only inside
 * `db.connection().execute(…)`, which holds SQLite's one connection: never
 * between the statements of another's transaction.
 */
export function sqliteHandle(db: Db): SQLiteModule.Database | undefined {
  return SQLITE_HANDLES.get(db);
}

/**
 * Runs the migrations this version has and the database has not, in order, and returns their names
 * (empty on the usual restart) so that the caller can say what an upgrade changed. `folder` is
 * this version's migrations folder but in the tests of discovery itself.
 */
export async function migrateToLatest(db: Db, folder: URL = MIGRATIONS_FOLDER): Promise<string[]> {
  if (await isAtLatest(db, folder)) return [];
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider(folder) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export { isForeignKeyViolation, isUniqueViolation } from '../platform/database-errors.js';
