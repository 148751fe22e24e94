/**
 * The one query layer: Kysely over SQLite (better-sqlite3, WAL) by default,
 * PostgreSQL (pg) when DATABASE_URL says so. Migrations run at start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
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

/**
 * Every migration, in order. Names sort lexically; never rename or edit a released one. Each module
 * is imported only when the database is not at the latest one (see migrateToLatest).
 */
const MIGRATIONS: Record<string, () => Promise<Migration>> = {
  '0001_foundation': () => import('./migrations/0001_foundation.js'),
  '0002_clients': () => import('./migrations/0002_clients.js'),
  '0003_organizations': () => import('./migrations/0003_organizations.js'),
  '0004_roles_groups': () => import('./migrations/0004_roles_groups.js'),
  '0005_guardian_push': () => import('./migrations/0005_guardian_push.js'),
  '0006_connections_users': () => import('./migrations/0006_connections_users.js'),
  '0007_tickets': () => import('./migrations/0007_tickets.js'),
  '0008_refresh_tokens': () => import('./migrations/0008_refresh_tokens.js'),
  '0009_authorization': () => import('./migrations/0009_authorization.js'),
  '0010_user_grants': () => import('./migrations/0010_user_grants.js'),
  '0011_rbac': () => import('./migrations/0011_rbac.js'),
  '0012_hardening': () => import('./migrations/0012_hardening.js'),
  '0013_interaction_steps': () => import('./migrations/0013_interaction_steps.js'),
  '0014_client_credentials': () => import('./migrations/0014_client_credentials.js'),
  '0015_pushed_authorization_requests': () => import('./migrations/0015_pushed_authorization_requests.js'),
  '0016_dpop_binding': () => import('./migrations/0016_dpop_binding.js'),
  '0017_custom_domains': () => import('./migrations/0017_custom_domains.js'),
  '0020_mfa': () => import('./migrations/0020_mfa.js'),
  '0021_passwordless': () => import('./migrations/0021_passwordless.js'),
  '0022_guardian_sms': () => import('./migrations/0022_guardian_sms.js'),
  '0030_samlp_sessions': () => import('./migrations/0030_samlp_sessions.js'),
  '0040_organization_members': () => import('./migrations/0040_organization_members.js'),
  '0041_device_codes': () => import('./migrations/0041_device_codes.js'),
  '0042_backchannel_logout': () => import('./migrations/0042_backchannel_logout.js'),
  '0043_backchannel_authentication': () => import('./migrations/0043_backchannel_authentication.js'),
  '0050_mfa_push': () => import('./migrations/0050_mfa_push.js'),
  '0051_sms_passwordless_users': () => import('./migrations/0051_sms_passwordless_users.js'),
  '0055_organization_discovery_domains': () => import('./migrations/0055_organization_discovery_domains.js'),
  '0056_email_provider_templates': () => import('./migrations/0056_email_provider_templates.js'),
  '0060_session_activity': () => import('./migrations/0060_session_activity.js'),
  '0061_signing_key_rotation': () => import('./migrations/0061_signing_key_rotation.js'),
  '0065_tenant_logs': () => import('./migrations/0065_tenant_logs.js'),
  '0070_jobs': () => import('./migrations/0070_jobs.js'),
  '0071_ticket_options': () => import('./migrations/0071_ticket_options.js'),
  '0075_management_api_name': () => import('./migrations/0075_management_api_name.js'),
  '0080_ui_settings': () => import('./migrations/0080_ui_settings.js'),
  '0085_linked_identities': () => import('./migrations/0085_linked_identities.js'),
  '0090_user_read_indexes': () => import('./migrations/0090_user_read_indexes.js'),
  '0091_job_file_parts': () => import('./migrations/0091_job_file_parts.js'),
  '0092_user_prefix_indexes': () => import('./migrations/0092_user_prefix_indexes.js'),
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const names = Object.keys(MIGRATIONS);
    const modules = await Promise.all(names.map((name) => MIGRATIONS[name]!()));
    return Object.fromEntries(names.map((name, i) => [name, modules[i]!]));
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
async function isAtLatest(db: Db): Promise<boolean> {
  const rows = await executedMigrations(db);
  if (rows === undefined) return false;
  const executed = new Set(rows);
  const unknown = rows.filter((name) => !Object.hasOwn(MIGRATIONS, name)).sort();
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  const names = Object.keys(MIGRATIONS);
  return executed.size === names.length && names.every((name) => executed.has(name));
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
 * (empty on the usual restart) so that the caller can say what an upgrade changed.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (await isAtLatest(db)) return [];
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export { isForeignKeyViolation, isUniqueViolation } from '../platform/database-errors.js';
