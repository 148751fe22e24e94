/**
 * The user reads whose cost must not grow with the tenant, as SQLite plans
 * them on a tenant of a few thousand users: every statement the store runs
 * for GET /users/{id} (with its linked identities), users-by-email,
 * `q=email:"…"` and the first list page is looked up in an index, never a
 * walk of the tenant (`users_created_idx` scanned for a filter) or a sort of
 * it (`USE TEMP B-TREE FOR ORDER BY` over every row), with the planner
 * statistics an import (or the hourly refresh) leaves. PostgreSQL's plans on a
 * table this small are seq scans whatever the indexes, so only SQLite's are
 * asserted; bench/scale.ts measures both at 10^6 users.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../../src/storage/database.js';
import type { Database } from '../../src/storage/schema.js';
import { KyselyUserStore } from '../../src/storage/kysely/users.js';
import { parseUserQuery, parseUserSort } from '../../src/management/users/search-query.js';
import { UserSearchTimeout } from '../../src/domain/users/search.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/postgres.js';
import { T0, userRow } from '../helpers/rows.js';

// Before any suite starts: the SQLite suite's set-up holds the event loop longer than the connection timeout.
const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

const USERS = 3_000;

/** The i-th user of the tenants below (created in this order). */
function planUser(i: number) {
  return {
    user_id: `auth0|plan${String(i).padStart(6, '0')}`, email: `u${i}@example.com`, email_lower: `u${i}@example.com`,
    name: `Plan User ${i}`, nickname: `Nick${i}`, username: null, username_lower: null, blocked: i % 7 === 0 ? 1 : 0,
  };
}
const idOf = (i: number) => planUser(i).user_id;

/** Searches that an index serves, with what they find and the index that must serve them (SQLite, PostgreSQL). */
const INDEXED_SEARCHES: { q: string; found: number[]; sqlite: RegExp; postgres: RegExp }[] = [
  { q: 'name:plan\\ user\\ 42*', found: [42, ...Array.from({ length: 10 }, (_, k) => 420 + k)], sqlite: /USING INDEX users_name_prefix_idx \(tenant_id=\? AND <expr>>\? AND <expr><\?\)/, postgres: /users_name_prefix_idx/ },
  { q: 'email:U42*', found: [42, ...Array.from({ length: 10 }, (_, k) => 420 + k)], sqlite: /USING INDEX users_email_lower_idx \(tenant_id=\? AND email_lower>\? AND email_lower<\?\)/, postgres: /users_email_prefix_idx/ },
  { q: 'nickname:"NICK7"', found: [7], sqlite: /USING INDEX users_nickname_prefix_idx \(tenant_id=\? AND <expr>=\?\)/, postgres: /users_nickname_prefix_idx/ },
  { q: 'user_id:auth0|plan00004*', found: Array.from({ length: 10 }, (_, k) => 40 + k), sqlite: /USING INDEX sqlite_autoindex_users_1 \(tenant_id=\? AND user_id>\? AND user_id<\?\)|USING PRIMARY KEY/, postgres: /users_pk/ },
];

describe('user reads use indexes (SQLite plans)', () => {
  let dir: string;
  let sqlite: SQLite.Database;
  let db: Kysely<Database>;
  let store: KyselyUserStore;
  const executed: CompiledQuery[] = [];
  const tenantId = 'ten_plans';
  const connectionId = 'con_plans';

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-plans-'));
    sqlite = new SQLite(path.join(dir, 'plans.db'));
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log: (event) => void (event.level === 'query' && executed.push(event.query)) });
    await migrateToLatest(db);
    await db.insertInto('tenants').values({ id: tenantId, name: 'plans', domain: 'plans.example.test', settings: '{}', created_at: T0 }).execute();
    await db.insertInto('connections').values({ tenant_id: tenantId, id: connectionId, name: 'db', display_name: null, strategy: 'auth0', options: '{}', is_domain_connection: 0, realms: '[]', metadata: '{}', created_at: T0, updated_at: T0 }).execute();
    store = new KyselyUserStore(db);
    const rows = Array.from({ length: USERS }, (_, i) => {
      const at = new Date(Date.parse(T0) + i * 1000).toISOString();
      return userRow(tenantId, connectionId, { ...planUser(i), created_at: at, updated_at: at });
    });
    for (let i = 0; i < rows.length; i += 500) await store.insertMany(rows.slice(i, i + 500));
    // One linked identity, so that the linked lookups have something to find.
    assert.equal(await store.link(tenantId, 'auth0|plan000002', 'auth0|plan000001', T0), true);
    // As an import job does when it ends (and the server every hour, and SQLite's optimize at open).
    await store.refreshStatistics();
  });
  after(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The plans of the statements `work` ran. */
  async function plansOf(work: () => Promise<unknown>): Promise<string[]> {
    executed.length = 0;
    await work();
    assert.ok(executed.length > 0);
    return executed.map((query) => {
      const rows = sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as { detail: string }[];
      return `${query.sql}\n  ${rows.map((r) => r.detail).join('\n  ')}`;
    });
  }

  /** `inOrderWalk`: the unfiltered list, which reads users_created_idx in order and stops at the page's end. */
  function assertIndexed(plans: string[], options: { orderedSortAllowed?: boolean; inOrderWalk?: boolean } = {}) {
    for (const plan of plans) {
      assert.doesNotMatch(plan, /SCAN users\b/, plan);
      if (!options.inOrderWalk) assert.doesNotMatch(plan, /USING INDEX users_created_idx \(tenant_id=\?\)$/m, `a walk of the tenant by creation time:\n${plan}`);
      if (!options.orderedSortAllowed) assert.doesNotMatch(plan, /USE TEMP B-TREE FOR ORDER BY/, `a sort of the rows:\n${plan}`);
    }
  }

  it('GET /users/{id} and its linked identities', async () => {
    const plans = await plansOf(async () => {
      const user = await store.get(tenantId, 'auth0|plan000001');
      assert.ok(user);
      const identities = await store.linkedIdentities(tenantId, ['auth0|plan000001', 'auth0|plan000777']);
      assert.deepEqual(identities.map((row) => row.user_id), ['auth0|plan000002']);
    });
    assertIndexed(plans);
  });

  it('users-by-email finds the user with the email and the user one of whose identities has it', async () => {
    const plans = await plansOf(async () => {
      assert.deepEqual((await store.listByEmail(tenantId, 'u5@example.com')).map((row) => row.user_id), ['auth0|plan000005']);
      assert.deepEqual((await store.listByEmail(tenantId, 'u2@example.com')).map((row) => row.user_id), ['auth0|plan000001']);
    });
    assertIndexed(plans);
  });

  it('q=email:"…" (the email index; the sort is of the matching rows only) and the first list page (in index order)', async () => {
    const filter = parseUserQuery('email:"u42@example.com"');
    assert.ok(filter);
    const byEmail = await plansOf(async () => {
      const page = await store.search(tenantId, { filter, offset: 0, limit: 50, withTotal: false });
      assert.deepEqual(page.rows.map((row) => row.user_id), ['auth0|plan000042']);
    });
    for (const plan of byEmail) assert.match(plan, /USING INDEX users_email_lower_idx \(tenant_id=\? AND email_lower=\?\)/, plan);
    assertIndexed(byEmail, { orderedSortAllowed: true });
    const firstPage = await plansOf(async () => {
      const page = await store.search(tenantId, { offset: 0, limit: 50, withTotal: false });
      assert.equal(page.rows.length, 50);
      assert.equal(page.rows[0]!.user_id, 'auth0|plan000000');
    });
    assertIndexed(firstPage, { inOrderWalk: true });
  });

  it('prefix and exact searches of the text fields and user_id read their index (migration 0092)', async () => {
    for (const { q, found, sqlite: index } of INDEXED_SEARCHES) {
      const filter = parseUserQuery(q);
      const plans = await plansOf(async () => {
        const page = await store.search(tenantId, { filter, offset: 0, limit: 50, withTotal: true });
        assert.deepEqual(page.rows.map((row) => row.user_id), found.map(idOf), q);
        assert.equal(page.total, found.length, q);
      });
      assert.match(plans[0]!, index, q);
      assertIndexed(plans, { orderedSortAllowed: true });
    }
  });

  it('a search no index serves is read a step of the tenant at a time, in any order, with its total', async () => {
    const stepped = new KyselyUserStore(db, { scanStep: 400 });
    const expected = Array.from({ length: USERS }, (_, i) => planUser(i)).filter((user) => user.blocked === 1 && !user.email.startsWith('u1'));
    const filter = parseUserQuery('blocked:true AND NOT email:u1*');
    const byName = [...expected].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const plans = await plansOf(async () => {
      const page = await stepped.search(tenantId, { filter, sort: parseUserSort('name:-1'), offset: 20, limit: 30, withTotal: true });
      assert.deepEqual(page.rows.map((row) => row.user_id), byName.slice(20, 50).map((user) => user.user_id));
      assert.equal(page.total, expected.length);
    });
    for (const plan of plans) assert.doesNotMatch(plan, /SCAN users\b/, plan);
    assert.ok(plans.some((plan) => /USING INDEX users_created_idx \(tenant_id=\? AND \(created_at,user_id\)>\(\?,\?\) AND \(created_at,user_id\)<=?\(\?,\?\)\)/.test(plan)), plans.join('\n'));
    // In creation order the first page ends the read early, and the sort of the list is the same.
    const first = await stepped.search(tenantId, { filter, offset: 0, limit: 5, withTotal: false });
    assert.deepEqual(first.rows.map((row) => row.user_id), expected.slice(0, 5).map((user) => user.user_id));
    const sortedList = await stepped.search(tenantId, { sort: parseUserSort('logins_count:1'), offset: 0, limit: 3, withTotal: true });
    assert.deepEqual(sortedList.rows.map((row) => row.user_id), [idOf(0), idOf(1), idOf(3)]); // 2 is linked to 1
    assert.equal(sortedList.total, USERS - 1); // the linked identity is not a user of its own
  });

  it('a search no index serves that runs past the time limit is refused (UserSearchTimeout), an indexed one is not', async () => {
    const hurried = new KyselyUserStore(db, { scanStep: 100, timeLimitMs: 0 });
    await assert.rejects(hurried.search(tenantId, { filter: parseUserQuery('blocked:false'), offset: 0, limit: 50, withTotal: true }), UserSearchTimeout);
    await assert.rejects(hurried.search(tenantId, { sort: parseUserSort('name:1'), offset: 0, limit: 50, withTotal: false }), UserSearchTimeout);
    const indexed = await hurried.search(tenantId, { filter: parseUserQuery('email:u42*'), offset: 0, limit: 50, withTotal: true });
    assert.equal(indexed.total, 11);
  });
});


describe('user searches can use their indexes (PostgreSQL plans, sequential scans disabled)', { skip: skipPostgres }, () => {
  // On a table this small the planner prefers a sequential scan whatever the indexes; with it
  // disabled, a plan that still reads the whole table says that no index can serve the query.
  let database: TestDatabase;
  let pool: pg.Pool;
  let db: Kysely<Database>;
  let store: KyselyUserStore;
  const executed: CompiledQuery[] = [];
  const tenantId = 'ten_plans';
  const connectionId = 'con_plans';

  before(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void (event.level === 'query' && executed.push(event.query)) });
    await migrateToLatest(db);
    await db.insertInto('tenants').values({ id: tenantId, name: 'plans', domain: 'plans.example.test', settings: '{}', created_at: T0 }).execute();
    await db.insertInto('connections').values({ tenant_id: tenantId, id: connectionId, name: 'db', display_name: null, strategy: 'auth0', options: '{}', is_domain_connection: 0, realms: '[]', metadata: '{}', created_at: T0, updated_at: T0 }).execute();
    store = new KyselyUserStore(db);
    await store.insertMany(Array.from({ length: 500 }, (_, i) => userRow(tenantId, connectionId, { ...planUser(i), created_at: new Date(Date.parse(T0) + i * 1000).toISOString() })));
    await store.refreshStatistics();
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('prefix and exact searches of the text fields and user_id read their index', async () => {
    for (const { q, found, postgres: index } of INDEXED_SEARCHES) {
      executed.length = 0;
      const page = await store.search(tenantId, { filter: parseUserQuery(q), offset: 0, limit: 50, withTotal: false });
      assert.deepEqual(page.rows.map((row) => row.user_id), found.filter((i) => i < 500).map(idOf), q);
      const search = executed.find((query) => query.sql.includes('from "users"'));
      assert.ok(search, q);
      const client = await pool.connect();
      try {
        await client.query('set enable_seqscan = off');
        const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain ${search.sql}`, search.parameters as unknown[])).rows.map((row) => row['QUERY PLAN']).join('\n');
        assert.match(plan, index, `${q}\n${plan}`);
      } finally {
        await client.query('reset enable_seqscan');
        client.release();
      }
    }
  });
});
