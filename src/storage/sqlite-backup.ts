/**
 * Backups of the SQLite database (`gatehouse backup` and `gatehouse restore`).
 *
 * A backup is SQLite's online backup API (better-sqlite3's `db.backup`): a
 * copy consistent at one moment, taken while the server serves (WAL mode lets
 * it read beside the writers; a write by another process during a step makes
 * SQLite start the copy again, so what comes out is one committed state).
 * The backup file is an SQLite database of its own. It holds what the
 * database holds and nothing else: the master key (`<data dir>/master.key`
 * or GATEHOUSE_MASTER_KEY) is never in it, so secrets sealed under that key
 * stay sealed in the backup.
 *
 * PostgreSQL has its own tools (pg_dump, pg_restore); the commands say so.
 */
import fs from 'node:fs';
import path from 'node:path';
import type SQLiteModule from 'better-sqlite3';
import { SQLite } from './drivers.js';

export class BackupError extends Error {}

/** Pages copied per step of the backup API: large, so that a busy database is copied in few steps. */
const PAGES_PER_STEP = 4096;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Whether `file` starts with SQLite's header. */
function isSqliteFile(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}

/** The names of the tables of an open database. */
function tableNames(db: SQLiteModule.Database): Set<string> {
  return new Set((db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name));
}

/**
 * Whether the open database holds Gatehouse data: its migration table with
 * the first migration, and the tenants table (what a new database gets on its
 * first start).
 */
function isGatehouseDatabase(db: SQLiteModule.Database): boolean {
  const tables = tableNames(db);
  if (!tables.has('kysely_migration') || !tables.has('tenants')) return false;
  return db.prepare("select 1 from kysely_migration where name = '0001_foundation'").get() !== undefined;
}

/** Copies the live database `sqliteFile` to `outFile` (which must not exist yet); resolves with the size of the backup in bytes. */
export async function backupSqlite(sqliteFile: string, outFile: string): Promise<number> {
  if (!fs.existsSync(sqliteFile)) throw new BackupError(`there is no database at ${sqliteFile}`);
  if (fs.existsSync(outFile)) throw new BackupError(`${outFile} exists already; choose a new file name`);
  const source = new (SQLite())(sqliteFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    if (!isGatehouseDatabase(source)) throw new BackupError(`${sqliteFile} is not a Gatehouse database`);
    fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
    await source.backup(outFile, { progress: () => PAGES_PER_STEP });
  } finally {
    source.close();
  }
  fs.chmodSync(outFile, 0o600);
  return fs.statSync(outFile).size;
}

/**
 * Replaces the database `sqliteFile` by the backup `backupFile`. Refuses a
 * file that is not a Gatehouse SQLite backup, and a target that already
 * holds a tenant unless `force`. The server must be stopped meanwhile (its
 * caches would not see the change).
 */
export async function restoreSqlite(backupFile: string, sqliteFile: string, options: { force: boolean }): Promise<void> {
  if (!fs.existsSync(backupFile) || !fs.statSync(backupFile).isFile()) throw new BackupError(`there is no backup file at ${backupFile}`);
  if (!isSqliteFile(backupFile)) throw new BackupError(`${backupFile} is not a Gatehouse SQLite backup (not an SQLite database)`);
  const backup = new (SQLite())(backupFile, { readonly: true, fileMustExist: true });
  try {
    if (!isGatehouseDatabase(backup)) throw new BackupError(`${backupFile} is not a Gatehouse SQLite backup (no Gatehouse tables in it)`);
    if (backup.pragma('quick_check', { simple: true }) !== 'ok') throw new BackupError(`${backupFile} is damaged (SQLite's quick_check failed)`);
    if (fs.existsSync(sqliteFile) && !options.force) {
      const target = new (SQLite())(sqliteFile, { fileMustExist: true });
      try {
        const tables = tableNames(target);
        const tenants = tables.has('tenants') ? (target.prepare('select count(*) as n from tenants').get() as { n: number }).n : 0;
        if (tables.size > 0) {
          throw new BackupError(
            `${sqliteFile} is not empty (${tables.size} tables, ${tenants} tenant(s)); stop the server and add --force to replace it with the backup`,
          );
        }
      } finally {
        target.close();
      }
    }
    fs.mkdirSync(path.dirname(sqliteFile), { recursive: true });
    // The backup API writes into the target through SQLite (its WAL and locks included), never by copying files under it.
    await backup.backup(sqliteFile, { progress: () => PAGES_PER_STEP });
  } finally {
    backup.close();
  }
}
