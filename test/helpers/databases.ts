/**
 * Storage suites run once per store factory. A factory opens a whole set of
 * stores (src/domain/stores.ts) on fresh storage and closes it afterwards, so
 * a suite written against the store interfaces runs unchanged against every
 * implementation. Today that is the Kysely one, twice: SQLite in a temporary
 * directory and PostgreSQL in a fresh database (dropped afterwards), both
 * migrated. Another implementation (Redis) adds a factory.
 *
 * The PostgreSQL factory is skipped with its reason when the server is
 * unreachable, except under CI, where postgresAvailable() fails the run
 * instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import pg from 'pg';
import type { Stores, UnitOfWork } from '../../src/domain/stores.js';
import { ProcessClock } from '../../src/platform/clock.js';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db, type Dialect } from '../../src/storage/database.js';
import { kyselyStores } from '../../src/storage/kysely/index.js';
import { createTestDatabase, postgresAvailable, POSTGRES_ADMIN_URL, type TestDatabase } from './postgres.js';

/** One implementation's stores on fresh storage. */
export interface OpenedStores {
  stores: Stores;
  unitOfWork: UnitOfWork;
  /** SQL implementations only: the migrated database, for the few checks that read or change tables directly. */
  db?: Db;
  dialect?: Dialect;
  close(): Promise<void>;
}

export interface StoreFactory {
  /** Names the suite's describe: `<title>: <name>`. */
  name: string;
  /** Why the factory cannot run here, or false; asked once, before the suite is declared. */
  skip(): Promise<string | false>;
  open(): Promise<OpenedStores>;
}

/** What a suite's cases reach once the suite's before hooks have run. */
export interface StoreHarness {
  stores(): Stores;
  unitOfWork(): UnitOfWork;
  /** The SQL database under the stores; fails for a factory that has none. */
  db(): Db;
  /** Its dialect; fails for a factory that has no SQL database. */
  dialect(): Dialect;
}

/** The Kysely stores on `handle`, migrated; `dispose` removes the storage once the handle is closed. */
async function openKysely(handle: DatabaseHandle, expected: Dialect, dispose: () => Promise<void>): Promise<OpenedStores> {
  const close = async (): Promise<void> => {
    try {
      await handle.close();
    } finally {
      await dispose();
    }
  };
  try {
    if (handle.dialect !== expected) throw new Error(`expected a ${expected} database, opened ${handle.dialect}`);
    await migrateToLatest(handle.db);
  } catch (error) {
    await close();
    throw error;
  }
  const { stores, unitOfWork } = kyselyStores(handle.db, new ProcessClock());
  return { stores, unitOfWork, db: handle.db, dialect: handle.dialect, close };
}

/** The Kysely stores on a SQLite file in a temporary directory. */
export function kyselySqlite(): StoreFactory {
  return {
    name: 'SQLite',
    skip: async () => false,
    open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-storage-'));
      const handle = openDatabase({ sqliteFile: path.join(dir, 'gatehouse.db') });
      return openKysely(handle, 'sqlite', async () => fs.rmSync(dir, { recursive: true, force: true }));
    },
  };
}

/**
 * pg's Pool.end() resolves once it has asked its clients to end, not once
 * their sockets are closed; after concurrent cases several connections may
 * still be closing, and DROP DATABASE … WITH (FORCE) would terminate them,
 * which surfaces as an uncaught "terminating connection" error. Wait for them.
 */
async function waitUntilDisconnected(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
      if (Number(rows[0]?.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await admin.end();
  }
}

/**
 * The Kysely stores on a fresh PostgreSQL database, dropped on close.
 * `createDatabase` says how the database is created (a suite that needs a
 * particular collation passes its own).
 */
export function kyselyPostgres(createDatabase: () => Promise<TestDatabase> = createTestDatabase): StoreFactory {
  return {
    name: 'PostgreSQL',
    skip: async () =>
      (await postgresAvailable()) ? false : `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (set GATEHOUSE_TEST_POSTGRES_URL; CI=true requires it)`,
    async open() {
      const database = await createDatabase();
      const handle = openDatabase({ databaseUrl: database.url, sqliteFile: ':memory:' });
      return openKysely(handle, 'postgres', async () => {
        await waitUntilDisconnected(database.url);
        await database.drop();
      });
    },
  };
}

/** Every implementation of the stores, each on fresh storage. */
export function storeFactories(): StoreFactory[] {
  return [kyselySqlite(), kyselyPostgres()];
}

/**
 * Declares `<title>: <factory name>` for each factory (SQLite and PostgreSQL
 * unless `factories` says otherwise); `body` declares the cases, which reach
 * the opened stores through `h` once the suite's own hooks run.
 */
export async function forEachStoreFactory(title: string, body: (h: StoreHarness) => void, factories: StoreFactory[] = storeFactories()): Promise<void> {
  // Before any suite is declared: under CI an unreachable PostgreSQL throws here and fails the file.
  const skips = await Promise.all(factories.map((factory) => factory.skip()));
  factories.forEach((factory, i) => {
    describe(`${title}: ${factory.name}`, { skip: skips[i] ?? false }, () => {
      let opened: OpenedStores | undefined;
      before(async () => {
        opened = await factory.open();
      });
      after(async () => {
        await opened?.close();
      });
      const current = (): OpenedStores => {
        if (!opened) throw new Error('the stores are opened in the suite’s before hook');
        return opened;
      };
      const sql = (): { db: Db; dialect: Dialect } => {
        const { db, dialect } = current();
        if (!db || !dialect) throw new Error(`${factory.name} has no SQL database; this check is for the SQL implementations`);
        return { db, dialect };
      };
      body({
        stores: () => current().stores,
        unitOfWork: () => current().unitOfWork,
        db: () => sql().db,
        dialect: () => sql().dialect,
      });
    });
  });
}
