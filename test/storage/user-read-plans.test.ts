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
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { migrateToLatest } from '../../src/storage/database.js';
import type { Database } from '../../src/storage/schema.js';
import { KyselyUserStore } from '../../src/storage/kysely/users.js';
import { parseUserQuery } from '../../src/management/users/search-query.js';
import { T0, userRow } from '../helpers/rows.js';

const USERS = 3_000;

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
      return userRow(tenantId, connectionId, { user_id: `auth0|plan${String(i).padStart(6, '0')}`, email: `u${i}@example.com`, email_lower: `u${i}@example.com`, username: null, username_lower: null, created_at: at, updated_at: at });
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
});
