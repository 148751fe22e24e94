/**
 * Storage suites run once per database: SQLite in a temporary directory and
 * PostgreSQL in a fresh database (dropped afterwards), both migrated. The
 * PostgreSQL half is skipped with its reason when the server is unreachable,
 * except under CI, where postgresAvailable() fails the run instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db, type Dialect } from '../../src/storage/database.js';
import { createTestDatabase, postgresAvailable, POSTGRES_ADMIN_URL } from './postgres.js';

export interface OpenedDatabase {
  handle: DatabaseHandle;
  dispose(): Promise<void>;
}

export async function openTestDatabase(dialect: Dialect): Promise<OpenedDatabase> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase();
    return { handle: openDatabase({ databaseUrl: database.url, sqliteFile: ':memory:' }), dispose: () => database.drop() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-storage-'));
  return {
    handle: openDatabase({ sqliteFile: path.join(dir, 'gatehouse.db') }),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Declares `<title>: SQLite` and `<title>: PostgreSQL`; `body` declares the
 * cases and reads the migrated database through `db()` once its own hooks run.
 */
export async function forEachDatabase(title: string, body: (db: () => Db, dialect: Dialect) => void): Promise<void> {
  const reachable = await postgresAvailable();
  for (const [dialect, label] of [
    ['sqlite', 'SQLite'],
    ['postgres', 'PostgreSQL'],
  ] as const) {
    const skip = dialect === 'postgres' && !reachable ? `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}` : false;
    describe(`${title}: ${label}`, { skip }, () => {
      let opened: OpenedDatabase | undefined;
      before(async () => {
        opened = await openTestDatabase(dialect);
        await migrateToLatest(opened.handle.db);
      });
      after(async () => {
        if (!opened) return;
        try {
          await opened.handle.close();
        } finally {
          await opened.dispose();
        }
      });
      body(() => {
        if (!opened) throw new Error('the database is opened in the suite’s before hook');
        return opened.handle.db;
      }, dialect);
    });
  }
}
