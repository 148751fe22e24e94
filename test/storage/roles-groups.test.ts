/**
 * Behavioural conformance of the role and group stores, on SQLite (a fresh file
 * in a temporary directory) and PostgreSQL (a fresh database, dropped
 * afterwards), as test/storage/conformance.test.ts does for the other stores:
 * each case checks a documented store contract through the store interfaces,
 * on migrated schemas, without query mocks. Cases work in tenants of their own.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { type Db } from '../../src/storage/database.js';
import { randomString } from '../../src/platform/crypto/ids.js';
import { GROUP_ID_ALPHABET, newGroupId } from '../../src/domain/groups/model.js';
import { newRoleId } from '../../src/domain/roles/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, byCodepoint, groupRow, roleRow, T0, tenantRow } from '../helpers/rows.js';
import { type GroupFilter } from '../../src/domain/groups/store.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';






async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('expected the operation to fail');
}

async function expectUniqueViolation(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  assert.ok(isUniqueViolation(error), `expected a unique violation, got ${String((error as { code?: string })?.code)}: ${String(error)}`);
}

const ids = (rows: { id: string }[]): string[] => rows.map((r) => r.id);


await forEachStoreFactory('role and group storage', (h) => {
  // The assignment table is read, many roles seeded, a foreign key and the
  // tenant cascade checked, in SQL.
  let db: Db;
  let tenants: Stores['tenants'];
  let roles: Stores['roles'];
  let groups: Stores['groups'];

  before(() => {
    db = h.db();
    ({ tenants, roles, groups } = h.stores());
  });

  async function newTenant(): Promise<string> {
    const tenant = tenantRow();
    await tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    return tenant.id;
  }

  /** Assignment rows of a group, read directly (not through a store). */
  async function assignmentsOf(tenantId: string, groupId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('group_roles')
      .select('role_id')
      .where('tenant_id', '=', tenantId)
      .where('group_id', '=', groupId)
      .execute();
    return rows.map((r) => r.role_id).sort(byCodepoint);
  }

  async function countAssignments(tenantId: string): Promise<number> {
    const result = await sql<{ n: number | string }>`select count(*) as n from group_roles where tenant_id = ${tenantId}`.execute(db);
    return Number(result.rows[0]?.n ?? NaN);
  }

  describe('RoleStore', () => {
    it('insert and get round-trip every column; get is scoped to the tenant', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const row = roleRow(a, { description: 'Reads reports' });
      await roles.insert(row);
      assert.deepEqual(await roles.get(a, row.id), row);
      assert.equal(await roles.get(b, row.id), undefined);
      assert.equal(await roles.get(a, newRoleId()), undefined);
    });

    it('names are unique per tenant, case-sensitively; the same name in another tenant is fine', async () => {
      const a = await newTenant();
      const b = await newTenant();
      await roles.insert(roleRow(a, { name: 'admin' }));
      await expectUniqueViolation(roles.insert(roleRow(a, { name: 'admin' })));
      await roles.insert(roleRow(a, { name: 'Admin' }));
      await roles.insert(roleRow(b, { name: 'admin' }));
    });

    it('list pages in id order, counts with withTotal, and filters names case-insensitively by substring', async () => {
      const t = await newTenant();
      const rows = [
        // Upper case sorts before lower case byte-wise, whatever the database's collation.
        roleRow(t, { id: 'rol_aaaaaaaaaaaaaaaa', name: 'Reader' }),
        roleRow(t, { id: 'rol_Baaaaaaaaaaaaaaa', name: 'report_writer' }),
        roleRow(t, { id: 'rol_0aaaaaaaaaaaaaaa', name: 'Admin' }),
        roleRow(t, { id: 'rol_Caaaaaaaaaaaaaaa', name: '100%_done' }),
      ];
      for (const row of rows) await roles.insert(row);
      const sorted = ids(rows).sort(byCodepoint);
      const all = await roles.list(t, { offset: 0, limit: 10, withTotal: true });
      assert.deepEqual(ids(all.rows), sorted);
      assert.equal(all.total, 4);
      const page = await roles.list(t, { offset: 1, limit: 2, withTotal: false });
      assert.deepEqual(ids(page.rows), sorted.slice(1, 3));
      assert.equal(page.total, undefined);

      const re = await roles.list(t, { offset: 0, limit: 10, nameFilter: 'RE', withTotal: true });
      assert.deepEqual(ids(re.rows), [rows[0]!.id, rows[1]!.id].sort(byCodepoint));
      assert.equal(re.total, 2);
      // LIKE wildcards in the filter match literally.
      assert.deepEqual(ids((await roles.list(t, { offset: 0, limit: 10, nameFilter: '%_', withTotal: false })).rows), [rows[3]!.id]);
      assert.deepEqual(ids((await roles.list(t, { offset: 0, limit: 10, nameFilter: '_', withTotal: false })).rows), [rows[1]!.id, rows[3]!.id].sort(byCodepoint));
    });

    it('update applies the changed columns, reports a missing role, and refuses a taken name', async () => {
      const t = await newTenant();
      const row = roleRow(t, { name: 'one' });
      const other = roleRow(t, { name: 'two' });
      await roles.insert(row);
      await roles.insert(other);
      assert.equal(await roles.update(t, row.id, { description: 'changed' }), true);
      assert.deepEqual(await roles.get(t, row.id), { ...row, description: 'changed' });
      assert.equal(await roles.update(t, row.id, {}), true);
      assert.equal(await roles.update(t, newRoleId(), { name: 'x' }), false);
      assert.equal(await roles.update(t, newRoleId(), {}), false);
      await expectUniqueViolation(roles.update(t, row.id, { name: 'two' }));
      assert.equal((await roles.get(t, row.id))?.name, 'one');
    });

    it('delete removes the role and its group assignments together, and nothing of other roles', async () => {
      const t = await newTenant();
      const doomed = roleRow(t);
      const kept = roleRow(t);
      const g1 = groupRow(t);
      const g2 = groupRow(t);
      for (const r of [doomed, kept]) await roles.insert(r);
      for (const g of [g1, g2]) await groups.insert(g);
      assert.deepEqual(await groups.assignRoles(t, g1.id, [doomed.id, kept.id], T0), { status: 'assigned' });
      assert.deepEqual(await groups.assignRoles(t, g2.id, [doomed.id], T0), { status: 'assigned' });

      assert.equal(await roles.delete(t, doomed.id), true);
      assert.equal(await roles.get(t, doomed.id), undefined);
      assert.deepEqual(await assignmentsOf(t, g1.id), [kept.id]);
      assert.deepEqual(await assignmentsOf(t, g2.id), []);
      assert.equal(await roles.delete(t, doomed.id), false);
    });
  });

  describe('GroupStore', () => {
    it('insert and get round-trip every column, for ids of 18 and 26 characters', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const short = groupRow(a, { id: `grp_${randomString(14, GROUP_ID_ALPHABET)}`, description: 'd', external_id: 'ext-1' });
      const long = groupRow(a, { id: `grp_${randomString(22, GROUP_ID_ALPHABET)}`, connection_id: 'con_abcdefghijklmnop' });
      assert.equal(short.id.length, 18);
      assert.equal(long.id.length, 26);
      for (const g of [short, long]) await groups.insert(g);
      assert.deepEqual(await groups.get(a, short.id), short);
      assert.deepEqual(await groups.get(a, long.id), long);
      assert.equal(await groups.get(b, short.id), undefined);
    });

    it('names are unique within a connection, an organization, or (tenant groups) the tenant', async () => {
      const t = await newTenant();
      await groups.insert(groupRow(t, { name: 'Engineering' }));
      await expectUniqueViolation(groups.insert(groupRow(t, { name: 'Engineering' })));
      await groups.insert(groupRow(t, { name: 'Engineering', connection_id: 'con_1' }));
      await expectUniqueViolation(groups.insert(groupRow(t, { name: 'Engineering', connection_id: 'con_1' })));
      await groups.insert(groupRow(t, { name: 'Engineering', connection_id: 'con_2' }));
      await groups.insert(groupRow(t, { name: 'Engineering', organization_id: 'org_1' }));
      await expectUniqueViolation(groups.insert(groupRow(t, { name: 'Engineering', organization_id: 'org_1' })));
      const other = await newTenant();
      await groups.insert(groupRow(other, { name: 'Engineering' }));
    });

    it('list orders by id byte-wise, pages by offset and by keyset, and filters', async () => {
      const t = await newTenant();
      // Upper case sorts before lower case byte-wise, whatever the database's collation.
      const rows = [
        groupRow(t, { id: 'grp_aaaaaaaaaaaaaaaa', name: 'Sales EMEA', external_id: 'ext-sales' }),
        groupRow(t, { id: 'grp_Baaaaaaaaaaaaaaa', name: 'Engineering', connection_id: 'con_1' }),
        groupRow(t, { id: 'grp_Caaaaaaaaaaaaaaa', name: 'Support', external_id: 'SALES-support' }),
      ];
      for (const row of rows) await groups.insert(row);
      const sorted = ids(rows).sort(byCodepoint);
      const list = (filter: GroupFilter) => groups.list(t, filter, { kind: 'offset', offset: 0, limit: 10, withTotal: true });

      const all = await list({});
      assert.deepEqual(ids(all.rows), sorted);
      assert.equal(all.total, 3);
      const offset = await groups.list(t, {}, { kind: 'offset', offset: 1, limit: 1, withTotal: false });
      assert.deepEqual(ids(offset.rows), [sorted[1]]);
      assert.equal(offset.total, undefined);

      const first = await groups.list(t, {}, { kind: 'keyset', limit: 2 });
      assert.deepEqual(ids(first.rows), sorted.slice(0, 2));
      const rest = await groups.list(t, {}, { kind: 'keyset', after: sorted[1]!, limit: 2 });
      assert.deepEqual(ids(rest.rows), sorted.slice(2));

      assert.deepEqual(ids((await list({ connection_id: 'con_1' })).rows), [rows[1]!.id]);
      assert.deepEqual(ids((await list({ name: 'Support' })).rows), [rows[2]!.id]);
      assert.deepEqual(ids((await list({ name: 'support' })).rows), []);
      assert.deepEqual(ids((await list({ external_id: 'ext-sales' })).rows), [rows[0]!.id]);
      const search = await list({ search: 'sales' });
      assert.deepEqual(ids(search.rows), [rows[2]!.id, rows[0]!.id].sort(byCodepoint));
      assert.equal(search.total, 2);
      assert.deepEqual(ids((await list({ search: 'sales', connection_id: 'con_1' })).rows), []);
    });

    it('assignRoles assigns every listed role once, skips ones already assigned, and lists them by role id', async () => {
      const t = await newTenant();
      const g = groupRow(t);
      await groups.insert(g);
      const rs = [roleRow(t), roleRow(t), roleRow(t)];
      for (const r of rs) await roles.insert(r);
      const sorted = ids(rs).sort(byCodepoint);

      assert.deepEqual(await groups.assignRoles(t, g.id, [rs[0]!.id, rs[0]!.id], T0), { status: 'assigned' });
      assert.deepEqual(await groups.assignRoles(t, g.id, [rs[0]!.id, rs[1]!.id, rs[2]!.id], at(1)), { status: 'assigned' });
      assert.deepEqual(await assignmentsOf(t, g.id), sorted);
      const kept = await db.selectFrom('group_roles').select('created_at').where('tenant_id', '=', t).where('role_id', '=', rs[0]!.id).executeTakeFirst();
      assert.equal(kept?.created_at, T0, 'an existing assignment is left as it was');

      const listed = await groups.listRoles(t, g.id, { limit: 10 });
      assert.deepEqual(ids(listed), sorted);
      assert.deepEqual(listed[0], rs.find((r) => r.id === sorted[0]));
      assert.deepEqual(ids(await groups.listRoles(t, g.id, { limit: 2 })), sorted.slice(0, 2));
      assert.deepEqual(ids(await groups.listRoles(t, g.id, { after: sorted[1]!, limit: 2 })), sorted.slice(2));
      assert.deepEqual(await groups.listRoles(t, newGroupId(), { limit: 10 }), []);
    });

    it('assignRoles writes nothing when the group or any listed role does not exist (all or none)', async () => {
      const t = await newTenant();
      const other = await newTenant();
      const g = groupRow(t);
      await groups.insert(g);
      const r = roleRow(t);
      const foreign = roleRow(other);
      await roles.insert(r);
      await roles.insert(foreign);
      const missing = newRoleId();

      assert.deepEqual(await groups.assignRoles(t, g.id, [r.id, missing], T0), { status: 'role_not_found', roleId: missing });
      assert.deepEqual(await groups.assignRoles(t, g.id, [r.id, foreign.id], T0), { status: 'role_not_found', roleId: foreign.id });
      assert.deepEqual(await groups.assignRoles(t, newGroupId(), [r.id], T0), { status: 'group_not_found' });
      assert.equal(await countAssignments(t), 0);
    });

    it('removeRoles removes every listed assignment at once, skips unassigned and unknown ids, and reports a missing group', async () => {
      const t = await newTenant();
      const g = groupRow(t);
      const sibling = groupRow(t);
      for (const x of [g, sibling]) await groups.insert(x);
      const rs = [roleRow(t), roleRow(t), roleRow(t)];
      for (const r of rs) await roles.insert(r);
      assert.deepEqual(await groups.assignRoles(t, g.id, ids(rs), T0), { status: 'assigned' });
      assert.deepEqual(await groups.assignRoles(t, sibling.id, ids(rs), T0), { status: 'assigned' });

      assert.equal(await groups.removeRoles(t, g.id, [rs[0]!.id, rs[1]!.id, newRoleId(), rs[0]!.id]), true);
      assert.deepEqual(await assignmentsOf(t, g.id), [rs[2]!.id]);
      assert.deepEqual(await assignmentsOf(t, sibling.id), ids(rs).sort(byCodepoint), 'another group keeps its roles');
      assert.equal(await groups.removeRoles(t, g.id, [rs[0]!.id]), true, 'removing an unassigned role is not an error');
      assert.equal(await groups.removeRoles(t, newGroupId(), [rs[2]!.id]), false);
      assert.deepEqual(await assignmentsOf(t, g.id), [rs[2]!.id]);
    });

    it('assignRoles and removeRoles handle lists longer than one statement takes', async () => {
      const t = await newTenant();
      const g = groupRow(t);
      await groups.insert(g);
      const many = Array.from({ length: 1203 }, (_, i) => roleRow(t, { name: `bulk-${i}` }));
      await db.insertInto('roles').values(many.slice(0, 600)).execute();
      await db.insertInto('roles').values(many.slice(600)).execute();
      assert.deepEqual(await groups.assignRoles(t, g.id, ids(many), T0), { status: 'assigned' });
      assert.equal(await countAssignments(t), 1203);
      // One unknown id at the very end refuses the whole list.
      const g2 = groupRow(t);
      await groups.insert(g2);
      const missing = newRoleId();
      assert.deepEqual(await groups.assignRoles(t, g2.id, [...ids(many), missing], T0), { status: 'role_not_found', roleId: missing });
      assert.deepEqual(await assignmentsOf(t, g2.id), []);
      assert.equal(await groups.removeRoles(t, g.id, ids(many).slice(1)), true);
      assert.deepEqual(await assignmentsOf(t, g.id), [many[0]!.id]);
    });

    it('delete removes the group and its role assignments together; the roles stay', async () => {
      const t = await newTenant();
      const g = groupRow(t);
      const kept = groupRow(t);
      for (const x of [g, kept]) await groups.insert(x);
      const r = roleRow(t);
      await roles.insert(r);
      for (const x of [g, kept]) assert.deepEqual(await groups.assignRoles(t, x.id, [r.id], T0), { status: 'assigned' });

      assert.equal(await groups.delete(t, g.id), true);
      assert.equal(await groups.get(t, g.id), undefined);
      assert.deepEqual(await assignmentsOf(t, g.id), []);
      assert.deepEqual(await assignmentsOf(t, kept.id), [r.id]);
      assert.deepEqual(await roles.get(t, r.id), r);
      assert.equal(await groups.delete(t, g.id), false);
    });

    it('the database refuses an assignment to a missing group or role (foreign keys)', async () => {
      const t = await newTenant();
      const g = groupRow(t);
      await groups.insert(g);
      const r = roleRow(t);
      await roles.insert(r);
      const row = (groupId: string, roleId: string) => ({ tenant_id: t, group_id: groupId, role_id: roleId, created_at: T0 });
      for (const bad of [row(g.id, newRoleId()), row(newGroupId(), r.id)]) {
        const error = (await rejection(db.insertInto('group_roles').values(bad).execute())) as { code?: string };
        assert.ok(error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || error.code === '23503', `expected a foreign-key violation, got ${String(error.code)}`);
      }
    });
  });

  it('deleting a tenant cascades to its roles, groups and assignments', async () => {
    const t = await newTenant();
    const g = groupRow(t);
    const r = roleRow(t);
    await groups.insert(g);
    await roles.insert(r);
    assert.deepEqual(await groups.assignRoles(t, g.id, [r.id], T0), { status: 'assigned' });
    await db.deleteFrom('tenants').where('id', '=', t).execute();
    for (const table of ['roles', 'groups', 'group_roles'] as const) {
      const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where tenant_id = ${t}`.execute(db);
      assert.equal(Number(result.rows[0]?.n), 0, `${table} kept rows of the deleted tenant`);
    }
  });
});
