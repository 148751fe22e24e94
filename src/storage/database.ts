/**
 * The one query layer: Kysely over SQLite (better-sqlite3, WAL) by default,
 * PostgreSQL (pg) when DATABASE_URL says so. Migrations run at start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import type SQLiteModule from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type PgModule from 'pg';
import { lazyModule } from '../platform/lazy.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_clients.js';
import * as m0003 from './migrations/0003_organizations.js';
import * as m0004 from './migrations/0004_roles_groups.js';
import * as m0005 from './migrations/0005_guardian_push.js';
import * as m0006 from './migrations/0006_connections_users.js';
import * as m0007 from './migrations/0007_tickets.js';
import * as m0008 from './migrations/0008_refresh_tokens.js';
import * as m0009 from './migrations/0009_authorization.js';
import * as m0010 from './migrations/0010_user_grants.js';
import * as m0011 from './migrations/0011_rbac.js';
import * as m0012 from './migrations/0012_hardening.js';
import * as m0013 from './migrations/0013_interaction_steps.js';
import * as m0014 from './migrations/0014_client_credentials.js';
import * as m0015 from './migrations/0015_pushed_authorization_requests.js';
import * as m0016 from './migrations/0016_dpop_binding.js';
import * as m0017 from './migrations/0017_custom_domains.js';
import * as m0020 from './migrations/0020_mfa.js';
import * as m0021 from './migrations/0021_passwordless.js';
import * as m0022 from './migrations/0022_guardian_sms.js';
import * as m0030 from './migrations/0030_samlp_sessions.js';
import * as m0040 from './migrations/0040_organization_members.js';
import * as m0041 from './migrations/0041_device_codes.js';
import * as m0042 from './migrations/0042_backchannel_logout.js';
import * as m0043 from './migrations/0043_backchannel_authentication.js';
import * as m0050 from './migrations/0050_mfa_push.js';
import * as m0051 from './migrations/0051_sms_passwordless_users.js';
import * as m0055 from './migrations/0055_organization_discovery_domains.js';
import * as m0056 from './migrations/0056_email_provider_templates.js';
import * as m0060 from './migrations/0060_session_activity.js';
import * as m0061 from './migrations/0061_signing_key_rotation.js';
import * as m0065 from './migrations/0065_tenant_logs.js';
import * as m0070 from './migrations/0070_jobs.js';
import * as m0071 from './migrations/0071_ticket_options.js';
import * as m0075 from './migrations/0075_management_api_name.js';
import * as m0080 from './migrations/0080_ui_settings.js';
import * as m0085 from './migrations/0085_linked_identities.js';
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

/** Every migration, in order. Names sort lexically; never rename or edit a released one. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_clients': m0002,
  '0003_organizations': m0003,
  '0004_roles_groups': m0004,
  '0005_guardian_push': m0005,
  '0006_connections_users': m0006,
  '0007_tickets': m0007,
  '0008_refresh_tokens': m0008,
  '0009_authorization': m0009,
  '0010_user_grants': m0010,
  '0011_rbac': m0011,
  '0012_hardening': m0012,
  '0013_interaction_steps': m0013,
  '0014_client_credentials': m0014,
  '0015_pushed_authorization_requests': m0015,
  '0016_dpop_binding': m0016,
  '0017_custom_domains': m0017,
  '0020_mfa': m0020,
  '0021_passwordless': m0021,
  '0022_guardian_sms': m0022,
  '0030_samlp_sessions': m0030,
  '0040_organization_members': m0040,
  '0041_device_codes': m0041,
  '0042_backchannel_logout': m0042,
  '0043_backchannel_authentication': m0043,
  '0050_mfa_push': m0050,
  '0051_sms_passwordless_users': m0051,
  '0055_organization_discovery_domains': m0055,
  '0056_email_provider_templates': m0056,
  '0060_session_activity': m0060,
  '0061_signing_key_rotation': m0061,
  '0065_tenant_logs': m0065,
  '0070_jobs': m0070,
  '0071_ticket_options': m0071,
  '0075_management_api_name': m0075,
  '0080_ui_settings': m0080,
  '0085_linked_identities': m0085,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
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

/** Only the driver of the database in use is loaded (platform/lazy.ts). */
const pg = lazyModule<typeof PgModule>('pg');
const SQLite = lazyModule<typeof SQLiteModule>('better-sqlite3');

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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  SQLITE_HANDLES.set(db, sqlite);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
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

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

export { isForeignKeyViolation, isUniqueViolation } from '../platform/database-errors.js';
