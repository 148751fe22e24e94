/**
 * migrateToLatest on a restart: a database that has run exactly this
 * version's migrations is left alone without Kysely's Migrator (and without
 * importing a migration module); anything else still goes to the Migrator.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, NewerDatabaseError, openDatabase, type DatabaseHandle } from '../../src/storage/database.js';

describe('migrateToLatest on an existing database', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let applied: string[];
  const tables = async () =>
    (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name like 'kysely_migration%'`.execute(handle.db)).rows.map((r) => r.name).sort();
  const executed = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db)).rows.map((r) => r.name);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-migrate-'));
    handle = openDatabase({ sqliteFile: path.join(dir, 'gatehouse.db') });
    applied = await migrateToLatest(handle.db);
  });
  after(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a fresh database runs every migration through the Migrator', async () => {
    assert.deepEqual(await tables(), ['kysely_migration', 'kysely_migration_lock']);
    const names = await executed();
    assert.ok(names.length >= 36 && names[0] === '0001_foundation', names.join(', '));
    assert.deepEqual(applied, names, 'it returns the names it applied, for the start-up log');
  });

  it('at the latest migration it does nothing: the Migrator would have made its lock table again', async () => {
    await sql`drop table kysely_migration_lock`.execute(handle.db);
    const before = await executed();
    assert.deepEqual(await migrateToLatest(handle.db), []);
    assert.deepEqual(await tables(), ['kysely_migration']);
    assert.deepEqual(await executed(), before);
  });

  it('a database written by a newer version is refused before anything changes, naming the unknown migrations', async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_version', '2026-01-01T00:00:00.000Z')`.execute(handle.db);
    await sql`insert into kysely_migration (name, timestamp) values ('9998_also_newer', '2026-01-01T00:00:00.000Z')`.execute(handle.db);
    const before = await executed();
    await assert.rejects(migrateToLatest(handle.db), (error: Error) => {
      assert.ok(error instanceof NewerDatabaseError);
      assert.match(error.message, /written by a newer version of Gatehouse/);
      assert.match(error.message, /migrations 9998_also_newer, 9999_from_a_newer_version, which this version does not know/);
      assert.match(error.message, /Upgrade Gatehouse/);
      return true;
    });
    // Not even the Migrator's lock table (dropped above) was made again.
    assert.deepEqual(await tables(), ['kysely_migration']);
    assert.deepEqual(await executed(), before);
  });
});
