/**
 * Migrations are found in their folder, not listed: every module of
 * src/storage/migrations/ runs, in the order of its name, on SQLite and
 * PostgreSQL; a file added to the folder is the next migration; a module
 * named otherwise is refused rather than skipped. (test/e2e/migrations-bundled.test.ts
 * checks the same of the bundled server, which reads dist/server/migrations/.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { discoverMigrations, migrateToLatest, NewerDatabaseError, openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { createTestDatabase, postgresAvailable, POSTGRES_ADMIN_URL } from '../helpers/postgres.js';

const SOURCE_FOLDER = path.resolve(import.meta.dirname, '../../src/storage/migrations');

/** The migrations as files: what a reader of the folder sees, in name order. */
const filesInFolder = () =>
  fs
    .readdirSync(SOURCE_FOLDER)
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();

/** A migration that needs no import: it records, in a table of its own, that it ran and when in the sequence. */
const migrationSource = (name: string) => `
export async function up(db) {
  await db.schema.createTable('ran').ifNotExists().addColumn('seq', 'integer').addColumn('name', 'text').execute();
  const { n } = await db.selectFrom('ran').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  await db.insertInto('ran').values({ seq: Number(n), name: '${name}' }).execute();
}
`;

const temporaryFolders: string[] = [];
function folderWith(files: Record<string, string>): URL {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-migrations-'));
  temporaryFolders.push(dir);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return pathToFileURL(`${dir}/`);
}
after(() => {
  for (const dir of temporaryFolders) fs.rmSync(dir, { recursive: true, force: true });
});

const pgSkip = (await postgresAvailable()) ? false : `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}`;

/** A fresh database of each kind, closed and removed after `fn`. */
const databases: { name: string; skip: string | false; open(): Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }> }[] = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-discovery-'));
      const handle = openDatabase({ sqliteFile: path.join(dir, 'gatehouse.db') });
      return { handle, dispose: async () => (await handle.close(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: pgSkip,
    async open() {
      const database = await createTestDatabase();
      const handle = openDatabase({ databaseUrl: database.url, sqliteFile: ':memory:' });
      return { handle, dispose: async () => (await handle.close(), await database.drop()) };
    },
  },
];

async function withDatabase(open: (typeof databases)[number]['open'], fn: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  const { handle, dispose } = await open();
  try {
    await fn(handle);
  } finally {
    await dispose();
  }
}

describe('discoverMigrations', () => {
  it('finds every module of src/storage/migrations, in name order', () => {
    const files = filesInFolder();
    assert.ok(files.length >= 39 && files[0] === '0001_foundation', files.join(', '));
    assert.deepEqual([...discoverMigrations().keys()], files);
  });

  it('orders by name whatever order the folder lists, and skips what is not a module (declarations, source maps, notes)', () => {
    const folder = folderWith({
      '0010_c.js': migrationSource('0010_c'),
      '0002_b.js': migrationSource('0002_b'),
      '0001_a.js': migrationSource('0001_a'),
      '0001_a.d.ts': 'export {};',
      '0001_a.js.map': '{}',
      'NOTES.md': 'not a migration',
    });
    assert.deepEqual([...discoverMigrations(folder).keys()], ['0001_a', '0002_b', '0010_c']);
  });

  it('refuses a module not named as a migration rather than skip it', () => {
    const folder = folderWith({ '0001_a.js': migrationSource('0001_a'), '0002-users-search.js': migrationSource('0002') });
    assert.throws(() => discoverMigrations(folder), /0002-users-search\.js is not named as a migration/);
  });

  it('refuses two modules of one name (a .ts beside its compiled .js)', () => {
    const folder = folderWith({ '0001_a.js': migrationSource('0001_a'), '0001_a.ts': migrationSource('0001_a') });
    assert.throws(() => discoverMigrations(folder), /are the migration 0001_a/);
  });
});

for (const database of databases) {
  describe(`migrateToLatest from the folder: ${database.name}`, { skip: database.skip }, () => {
    it('a fresh database runs every migration of src/storage/migrations, in name order', async () => {
      await withDatabase(database.open, async (handle) => {
        const applied = await migrateToLatest(handle.db);
        assert.deepEqual(applied, filesInFolder());
        const recorded = (await sql<{ name: string }>`select name from kysely_migration`.execute(handle.db)).rows.map((r) => r.name).sort();
        assert.deepEqual(recorded, filesInFolder());
        assert.deepEqual(await migrateToLatest(handle.db), [], 'a second run finds nothing to do');
      });
    });

    it('runs a folder’s migrations in name order; a file added to the folder is the next one run', async () => {
      await withDatabase(database.open, async (handle) => {
        const files = { '0010_c.js': migrationSource('0010_c'), '0002_b.js': migrationSource('0002_b'), '0001_a.js': migrationSource('0001_a') };
        assert.deepEqual(await migrateToLatest(handle.db, folderWith(files)), ['0001_a', '0002_b', '0010_c']);
        const ran = async () => (await sql<{ name: string }>`select name from ran order by seq`.execute(handle.db)).rows.map((r) => r.name);
        assert.deepEqual(await ran(), ['0001_a', '0002_b', '0010_c'], 'each ran after the ones named before it');

        // The next version: the same folder and one more file, nothing else changed.
        const next = folderWith({ ...files, '0011_users_search.js': migrationSource('0011_users_search') });
        assert.deepEqual(await migrateToLatest(handle.db, next), ['0011_users_search']);
        assert.deepEqual(await ran(), ['0001_a', '0002_b', '0010_c', '0011_users_search']);

        // The version before it finds a migration it does not know, by the name the file gave it.
        await assert.rejects(migrateToLatest(handle.db, folderWith(files)), (error: Error) => {
          assert.ok(error instanceof NewerDatabaseError);
          assert.deepEqual(error.unknownMigrations, ['0011_users_search']);
          return true;
        });
      });
    });
  });
}
