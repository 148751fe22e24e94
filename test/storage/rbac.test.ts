/**
 * Behavioural conformance of the RBAC store (and of the cascades of the role,
 * group, user and resource-server stores into its tables) on SQLite and
 * PostgreSQL, through the store interfaces on migrated schemas. Each case
 * works in a tenant of its own.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { randomString } from '../../src/platform/crypto/ids.js';
import type { Db } from '../../src/storage/database.js';
import { addGroupMemberScopes } from '../../src/storage/migrations/0011_rbac.js';
import { newRoleId } from '../../src/domain/roles/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, byCodepoint, connectionRow, groupRow, resourceServerRow, roleRow, T0, tenantRow, userRow } from '../helpers/rows.js';
import { type PermissionRef } from '../../src/domain/rbac/store.js';
import { toStored } from '../../src/storage/json-columns.js';

const perm = (resource_server_identifier: string, permission_name: string): PermissionRef => ({ resource_server_identifier, permission_name });

await forEachStoreFactory('RBAC storage', (h) => {
  // In SQL: tenants and connections are seeded, the RBAC tables counted and
  // their foreign keys checked, and migration 0011's scope backfill run again.
  let db: Db;
  let rbac: Stores['rbac'];
  let roles: Stores['roles'];
  let groups: Stores['groups'];
  let users: Stores['users'];
  let apis: Stores['resourceServers'];

  before(() => {
    db = h.db();
    ({ rbac, roles, groups, users, resourceServers: apis } = h.stores());
  });

  /** A tenant with one database connection, and helpers to add rows to it. */
  async function tenant() {
    const t = tenantRow();
    await db.insertInto('tenants').values(toStored('tenants', t)).execute();
    const connection = connectionRow(t.id);
    await db.insertInto('connections').values(toStored('connections', connection)).execute();
    return {
      id: t.id,
      async user(overrides: Parameters<typeof userRow>[2] = {}): Promise<string> {
        const row = userRow(t.id, connection.id, overrides);
        await users.insert(row);
        return row.user_id;
      },
      async role(overrides: Parameters<typeof roleRow>[1] = {}): Promise<string> {
        const row = roleRow(t.id, overrides);
        await roles.insert(row);
        return row.id;
      },
      async group(overrides: Parameters<typeof groupRow>[1] = {}): Promise<string> {
        const row = groupRow(t.id, overrides);
        await groups.insert(row);
        return row.id;
      },
      /** An API with the given scopes (`name` or `name:description`… as [value, description?] pairs). */
      async api(identifier: string, scopes: [string, string?][], name = `API ${identifier}`): Promise<{ id: string; identifier: string }> {
        const row = resourceServerRow(t.id, {
          identifier,
          name,
          scopes: scopes.map(([value, description]) => ({ value, ...(description !== undefined && { description }) })),
        });
        await apis.insert(row);
        return { id: row.id, identifier };
      },
    };
  }

  async function count(table: 'role_permissions' | 'user_permissions' | 'user_roles' | 'group_roles' | 'group_members', tenantId: string): Promise<number> {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('effectivePermissions', () => {
    it('is the distinct union of direct, role and group-role permissions for one API, ascending', async () => {
      const t = await tenant();
      const api = await t.api('https://api.example.test/', [['read:a'], ['read:b'], ['read:c'], ['write:d'], ['admin']]);
      const other = await t.api('https://other.example.test/', [['read:a'], ['other:x']]);
      const user = await t.user();
      const roleDirect = await t.role();
      const roleViaGroup = await t.role();
      const group = await t.group();

      assert.deepEqual(await rbac.addUserPermissions(t.id, user, [perm(api.identifier, 'write:d'), perm(api.identifier, 'read:a')], T0), {
        status: 'assigned',
      });
      assert.deepEqual(await rbac.addRolePermissions(t.id, roleDirect, [perm(api.identifier, 'read:a'), perm(api.identifier, 'read:b')], T0), {
        status: 'assigned',
      });
      await rbac.addRolePermissions(t.id, roleViaGroup, [perm(api.identifier, 'read:c'), perm(other.identifier, 'other:x')], T0);
      assert.deepEqual(await rbac.assignUserRoles(t.id, user, [roleDirect], T0), { status: 'assigned' });
      assert.deepEqual(await rbac.assignRoleGroups(t.id, roleViaGroup, [group], T0), { status: 'assigned' });
      assert.deepEqual(await rbac.addGroupMembers(t.id, group, [user], T0), { status: 'assigned' });
      // Another user's and another API's permissions stay out.
      const stranger = await t.user();
      await rbac.addUserPermissions(t.id, stranger, [perm(api.identifier, 'admin')], T0);
      await rbac.addUserPermissions(t.id, user, [perm(other.identifier, 'read:a')], T0);

      assert.deepEqual(await rbac.effectivePermissions(t.id, user, api.identifier), ['read:a', 'read:b', 'read:c', 'write:d']);
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, other.identifier), ['other:x', 'read:a']);
      assert.deepEqual(await rbac.effectivePermissions(t.id, stranger, api.identifier), ['admin']);
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, 'https://unknown.example.test/'), []);
      assert.deepEqual(await rbac.effectivePermissions(t.id, 'auth0|nobody', api.identifier), []);
      const elsewhere = await tenant();
      assert.deepEqual(await rbac.effectivePermissions(elsewhere.id, user, api.identifier), [], 'scoped to the tenant');

      // Leaving the group takes the group's roles' permissions away.
      assert.equal(await rbac.removeGroupMembers(t.id, group, [user]), true);
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, api.identifier), ['read:a', 'read:b', 'write:d']);
    });

    it('sorts names byte-wise on both databases', async () => {
      const t = await tenant();
      const api = await t.api('https://sort.example.test/', [['b'], ['B'], ['a'], ['_'], ['Z']]);
      const user = await t.user();
      await rbac.addUserPermissions(t.id, user, ['b', 'B', 'a', '_', 'Z'].map((name) => perm(api.identifier, name)), T0);
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, api.identifier), ['B', 'Z', '_', 'a', 'b']);
    });
  });

  describe('permissions of roles and users', () => {
    it('add checks the owner, then each permission in list order, and writes nothing on a refusal', async () => {
      const t = await tenant();
      const api = await t.api('https://api.example.test/', [['read:a', 'Read A'], ['read:b']]);
      const role = await t.role();
      const user = await t.user();
      for (const [add, owner] of [
        [rbac.addRolePermissions.bind(rbac), role],
        [rbac.addUserPermissions.bind(rbac), user],
      ] as const) {
        assert.deepEqual(await add(t.id, 'unknown', [perm(api.identifier, 'read:a')], T0), { status: 'owner_not_found' });
        assert.deepEqual(await add(t.id, owner, [perm(api.identifier, 'read:a'), perm('https://nope.example.test/', 'read:a'), perm(api.identifier, 'nope')], T0), {
          status: 'resource_server_not_found',
          identifier: 'https://nope.example.test/',
        });
        assert.deepEqual(await add(t.id, owner, [perm(api.identifier, 'read:a'), perm(api.identifier, 'nope'), perm('https://nope.example.test/', 'x')], T0), {
          status: 'permission_not_found',
          identifier: api.identifier,
          permissionName: 'nope',
        });
        // Scope names are exact: case matters.
        assert.equal((await add(t.id, owner, [perm(api.identifier, 'READ:A')], T0)).status, 'permission_not_found');
      }
      assert.equal(await count('role_permissions', t.id), 0);
      assert.equal(await count('user_permissions', t.id), 0);

      // An API of another tenant is unknown here.
      const elsewhere = await tenant();
      const foreign = await elsewhere.api('https://foreign.example.test/', [['read:a']]);
      assert.equal((await rbac.addRolePermissions(t.id, role, [perm(foreign.identifier, 'read:a')], T0)).status, 'resource_server_not_found');
    });

    it('holds a role to 1000 permissions and a user to 50 roles, also under concurrent additions', async () => {
      const t = await tenant();
      const names = Array.from({ length: 1004 }, (_, i) => `p:${i}`);
      const api = await t.api('https://limit.example.test/', names.map((n) => [n]));
      const role = await t.role();
      assert.deepEqual(await rbac.addRolePermissions(t.id, role, names.slice(0, 998).map((n) => perm(api.identifier, n)), T0), { status: 'assigned' });
      const results = await Promise.all(names.slice(998).map((n) => rbac.addRolePermissions(t.id, role, [perm(api.identifier, n)], T0)));
      assert.deepEqual(results.map((r) => r.status).sort(), ['assigned', 'assigned', 'limit_exceeded', 'limit_exceeded', 'limit_exceeded', 'limit_exceeded']);
      assert.equal(await count('role_permissions', t.id), 1000);

      const user = await t.user();
      const roleIds = [];
      for (let i = 0; i < 52; i++) roleIds.push(await t.role());
      assert.deepEqual(await rbac.assignUserRoles(t.id, user, roleIds.slice(0, 49), T0), { status: 'assigned' });
      const assigned = await Promise.all([rbac.assignUserRoles(t.id, user, [roleIds[49]!], T0), rbac.assignRoleUsers(t.id, roleIds[50]!, [user], T0), rbac.assignUserRoles(t.id, user, [roleIds[51]!], T0)]);
      assert.deepEqual(assigned.map((r) => r.status).sort(), ['assigned', 'limit_exceeded', 'limit_exceeded']);
      assert.deepEqual(assigned.find((r) => r.status === 'limit_exceeded'), { status: 'limit_exceeded', id: user });
      assert.equal(await count('user_roles', t.id), 50);
    });

    it('add is idempotent and counts duplicates once; list pages in (API, name) order with details', async () => {
      const t = await tenant();
      const a = await t.api('https://a.example.test/', [['write', 'Write things'], ['read', 'Read things']], 'Alpha');
      const b = await t.api('https://b.example.test/', [['use']], 'Beta');
      const role = await t.role();
      const list = [perm(b.identifier, 'use'), perm(a.identifier, 'write'), perm(a.identifier, 'read'), perm(a.identifier, 'write')];
      assert.deepEqual(await rbac.addRolePermissions(t.id, role, list, T0), { status: 'assigned' });
      assert.deepEqual(await rbac.addRolePermissions(t.id, role, list, at(5)), { status: 'assigned' });
      assert.equal(await count('role_permissions', t.id), 3);
      const kept = await db.selectFrom('role_permissions').select('created_at').where('tenant_id', '=', t.id).execute();
      assert.ok(kept.every((r) => r.created_at === T0), 'a repeat leaves the first assignment as it was');

      const all = await rbac.listRolePermissions(t.id, role, { offset: 0, limit: 10, withTotal: true });
      assert.deepEqual(all, {
        rows: [
          { resource_server_identifier: a.identifier, permission_name: 'read', resource_server_name: 'Alpha', description: 'Read things' },
          { resource_server_identifier: a.identifier, permission_name: 'write', resource_server_name: 'Alpha', description: 'Write things' },
          { resource_server_identifier: b.identifier, permission_name: 'use', resource_server_name: 'Beta', description: undefined },
        ],
        total: 3,
      });
      const page = await rbac.listRolePermissions(t.id, role, { offset: 1, limit: 1, withTotal: false });
      assert.deepEqual(page, { rows: [all.rows[1]] });
      assert.deepEqual(await rbac.listRolePermissions(t.id, newRoleId(), { offset: 0, limit: 10, withTotal: true }), { rows: [], total: 0 });

      // A scope removed from the API leaves the permission in place, without a description.
      await apis.update(t.id, a.id, { scopes: [{ value: 'write', description: 'Write things' }] });
      const after = await rbac.listRolePermissions(t.id, role, { offset: 0, limit: 1, withTotal: false });
      assert.deepEqual(after.rows, [{ ...all.rows[0]!, description: undefined }]);
    });

    it('remove removes the listed permissions only, skips unknown ones, and reports an unknown owner', async () => {
      const t = await tenant();
      const api = await t.api('https://api.example.test/', [['a'], ['b'], ['c']]);
      const user = await t.user();
      await rbac.addUserPermissions(t.id, user, ['a', 'b', 'c'].map((n) => perm(api.identifier, n)), T0);
      assert.equal(await rbac.removeUserPermissions(t.id, user, [perm(api.identifier, 'a'), perm(api.identifier, 'zzz'), perm('https://x.test/', 'c')]), true);
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, api.identifier), ['b', 'c']);
      assert.equal(await rbac.removeUserPermissions(t.id, 'auth0|nobody', [perm(api.identifier, 'b')]), false);
      assert.equal(await rbac.removeRolePermissions(t.id, newRoleId(), [perm(api.identifier, 'b')]), false);
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, api.identifier), ['b', 'c']);
    });

    it("a user's permissions: direct and the user's own roles', merged with their sources; groups' roles not included", async () => {
      const t = await tenant();
      const api = await t.api('https://api.example.test/', [['a', 'Aye'], ['b'], ['c'], ['g']], 'The API');
      const user = await t.user();
      const r1 = await t.role({ id: 'rol_AAAAAAAAAAAAAAA1', name: 'first' });
      const r2 = await t.role({ id: 'rol_AAAAAAAAAAAAAAA2', name: 'second' });
      const rg = await t.role();
      const group = await t.group();
      await rbac.addUserPermissions(t.id, user, [perm(api.identifier, 'a'), perm(api.identifier, 'c')], T0);
      await rbac.addRolePermissions(t.id, r1, [perm(api.identifier, 'a'), perm(api.identifier, 'b')], T0);
      await rbac.addRolePermissions(t.id, r2, [perm(api.identifier, 'a')], T0);
      await rbac.addRolePermissions(t.id, rg, [perm(api.identifier, 'g')], T0);
      await rbac.assignUserRoles(t.id, user, [r2, r1], T0);
      await rbac.assignRoleGroups(t.id, rg, [group], T0);
      await rbac.addGroupMembers(t.id, group, [user], T0);

      const listed = await rbac.listUserPermissions(t.id, user, { offset: 0, limit: 10, withTotal: true });
      const base = { resource_server_identifier: api.identifier, resource_server_name: 'The API' };
      assert.deepEqual(listed, {
        rows: [
          { ...base, permission_name: 'a', description: 'Aye', direct: true, roles: [{ id: r1, name: 'first' }, { id: r2, name: 'second' }] },
          { ...base, permission_name: 'b', description: undefined, direct: false, roles: [{ id: r1, name: 'first' }] },
          { ...base, permission_name: 'c', description: undefined, direct: true, roles: [] },
        ],
        total: 3,
      });
      assert.deepEqual(await rbac.listUserPermissions(t.id, user, { offset: 2, limit: 5, withTotal: false }), { rows: [listed.rows[2]] });
      assert.deepEqual(await rbac.effectivePermissions(t.id, user, api.identifier), ['a', 'b', 'c', 'g'], 'the group role counts for tokens');
    });
  });

  describe('roles of users, users and groups of roles, members of groups', () => {
    it('assignments are all or nothing, idempotent, and removals skip what is not assigned', async () => {
      const t = await tenant();
      const user = await t.user();
      const other = await t.user();
      const role = await t.role();
      const group = await t.group();
      const missingRole = newRoleId();

      assert.deepEqual(await rbac.assignUserRoles(t.id, user, [role, missingRole], T0), { status: 'item_not_found', id: missingRole });
      assert.deepEqual(await rbac.assignUserRoles(t.id, 'auth0|nobody', [role], T0), { status: 'owner_not_found' });
      assert.deepEqual(await rbac.assignRoleUsers(t.id, role, [user, 'auth0|nobody'], T0), { status: 'item_not_found', id: 'auth0|nobody' });
      assert.deepEqual(await rbac.assignRoleUsers(t.id, missingRole, [user], T0), { status: 'owner_not_found' });
      assert.equal(await count('user_roles', t.id), 0);
      assert.deepEqual(await rbac.addGroupMembers(t.id, group, [user, 'auth0|nobody'], T0), { status: 'item_not_found', id: 'auth0|nobody' });
      assert.equal(await count('group_members', t.id), 0);

      assert.deepEqual(await rbac.assignRoleUsers(t.id, role, [user, other, user], T0), { status: 'assigned' });
      assert.deepEqual(await rbac.assignUserRoles(t.id, user, [role], at(1)), { status: 'assigned' });
      assert.equal(await count('user_roles', t.id), 2);
      assert.equal(await rbac.removeUserRoles(t.id, user, [role, missingRole]), true);
      assert.equal(await rbac.removeUserRoles(t.id, 'auth0|nobody', [role]), false);
      assert.deepEqual((await rbac.listRoleUsers(t.id, role, { kind: 'keyset', limit: 10 })).rows.map((u) => u.user_id), [other]);

      assert.deepEqual(await rbac.addGroupMembers(t.id, group, [user, user], T0), { status: 'assigned' });
      assert.equal(await rbac.removeGroupMembers(t.id, group, [other]), true);
      assert.deepEqual(await rbac.listGroupMembers(t.id, group, { limit: 10 }), [{ user_id: user, created_at: T0 }]);
      assert.equal(await rbac.removeGroupMembers(t.id, groupRow(t.id).id, [user]), false);

      const missingGroup = groupRow(t.id).id;
      assert.deepEqual(await rbac.assignRoleGroups(t.id, role, [group, missingGroup], T0), { status: 'item_not_found', id: missingGroup });
      assert.equal(await count('group_roles', t.id), 0);
      assert.deepEqual(await rbac.assignRoleGroups(t.id, role, [group], T0), { status: 'assigned' });
      assert.equal(await rbac.removeRoleGroups(t.id, role, [missingGroup]), true);
      assert.deepEqual((await rbac.listRoleGroups(t.id, role, { limit: 10 })).map((g) => g.id), [group]);
      assert.equal(await rbac.removeRoleGroups(t.id, role, [group]), true);
      assert.equal(await rbac.removeRoleGroups(t.id, missingRole, [group]), false);
      assert.deepEqual(await rbac.listRoleGroups(t.id, role, { limit: 10 }), []);
    });

    it('lists page by key: offset with totals, or keyset after a key', async () => {
      const t = await tenant();
      const role = await t.role();
      const members: string[] = [];
      for (let i = 0; i < 5; i++) members.push(await t.user({ name: `User ${i}`, picture: `https://pics.example.test/${i}.png` }));
      members.sort(byCodepoint);
      await rbac.assignRoleUsers(t.id, role, members, T0);

      const first = await rbac.listRoleUsers(t.id, role, { kind: 'offset', offset: 0, limit: 2, withTotal: true });
      assert.equal(first.total, 5);
      assert.deepEqual(first.rows.map((u) => u.user_id), members.slice(0, 2));
      const row = first.rows[0]!;
      const stored = await users.get(t.id, row.user_id);
      assert.deepEqual(row, { user_id: stored!.user_id, email: stored!.email, picture: stored!.picture, name: stored!.name });
      assert.deepEqual((await rbac.listRoleUsers(t.id, role, { kind: 'offset', offset: 4, limit: 2, withTotal: false })).rows.map((u) => u.user_id), [members[4]]);
      const after = await rbac.listRoleUsers(t.id, role, { kind: 'keyset', after: members[1]!, limit: 2 });
      assert.deepEqual(after, { rows: (await rbac.listRoleUsers(t.id, role, { kind: 'offset', offset: 2, limit: 2, withTotal: false })).rows });

      const user = members[0]!;
      const roleIds = [await t.role(), await t.role(), await t.role()].sort(byCodepoint);
      await rbac.assignUserRoles(t.id, user, roleIds, T0);
      const userRoles = await rbac.listUserRoles(t.id, user, { offset: 1, limit: 5, withTotal: true });
      assert.equal(userRoles.total, 4);
      assert.deepEqual(userRoles.rows.map((r) => r.id), [role, ...roleIds].sort(byCodepoint).slice(1));
      assert.deepEqual(userRoles.rows[0], await roles.get(t.id, userRoles.rows[0]!.id));

      const groupIds = [await t.group(), await t.group(), await t.group()].sort(byCodepoint);
      for (const [i, g] of groupIds.entries()) await rbac.addGroupMembers(t.id, g, [user], at(i));
      const userGroups = await rbac.listUserGroups(t.id, user, { kind: 'offset', offset: 0, limit: 2, withTotal: true });
      assert.equal(userGroups.total, 3);
      assert.deepEqual(userGroups.rows[0], { ...(await groups.get(t.id, groupIds[0]!)), membership_created_at: at(0) });
      assert.deepEqual((await rbac.listUserGroups(t.id, user, { kind: 'keyset', after: groupIds[1]!, limit: 5 })).rows.map((g) => g.id), [groupIds[2]]);
      for (const g of groupIds) await rbac.addGroupMembers(t.id, g, members.slice(1), T0);
      assert.deepEqual((await rbac.listGroupMembers(t.id, groupIds[0]!, { after: members[2]!, limit: 10 })).map((m) => m.user_id), members.slice(3));
    });
  });

  describe('effective roles and their sources', () => {
    it('roles held directly, through groups, or both; the groups and roles behind each', async () => {
      const t = await tenant();
      const api = await t.api('https://api.example.test/', [['p'], ['q']]);
      const user = await t.user();
      const [direct, both, viaGroup, unrelated] = [
        await t.role({ id: 'rol_AAAAAAAAAAAAAAA1' }),
        await t.role({ id: 'rol_AAAAAAAAAAAAAAA2' }),
        await t.role({ id: 'rol_AAAAAAAAAAAAAAA3' }),
        await t.role({ id: 'rol_AAAAAAAAAAAAAAA4' }),
      ];
      const [g1, g2] = [await t.group(), await t.group()].sort(byCodepoint) as [string, string];
      const outsider = await t.group();
      await rbac.assignUserRoles(t.id, user, [direct, both], T0);
      await rbac.assignRoleGroups(t.id, both, [g1], T0);
      await rbac.assignRoleGroups(t.id, viaGroup, [g1, g2], T0);
      await rbac.assignRoleGroups(t.id, unrelated, [outsider], T0);
      await rbac.addGroupMembers(t.id, g1, [user], T0);
      await rbac.addGroupMembers(t.id, g2, [user], T0);
      for (const r of [direct, viaGroup]) await rbac.addRolePermissions(t.id, r, [perm(api.identifier, 'p')], T0);
      await rbac.addRolePermissions(t.id, unrelated, [perm(api.identifier, 'p')], T0);
      await rbac.addUserPermissions(t.id, user, [perm(api.identifier, 'p'), perm(api.identifier, 'q')], T0);

      const effective = await rbac.listEffectiveRoles(t.id, user, { limit: 10 });
      assert.deepEqual(
        effective.map((r) => [r.role.id, r.direct, r.viaGroups]),
        [
          [direct, true, false],
          [both, true, true],
          [viaGroup, false, true],
        ],
      );
      assert.deepEqual(effective[0]!.role, await roles.get(t.id, direct));
      assert.deepEqual((await rbac.listEffectiveRoles(t.id, user, { after: direct, limit: 1 })).map((r) => r.role.id), [both]);

      const granting = await rbac.listEffectivePermissionRoles(t.id, user, perm(api.identifier, 'p'), { limit: 10 });
      assert.deepEqual(granting.map((r) => [r.role.id, r.direct, r.viaGroups]), [
        [direct, true, false],
        [viaGroup, false, true],
      ]);
      assert.deepEqual(await rbac.listEffectivePermissionRoles(t.id, user, perm(api.identifier, 'q'), { limit: 10 }), []);

      assert.deepEqual((await rbac.listRoleSourceGroups(t.id, user, viaGroup, { limit: 10 })).map((g) => g.id), [g1, g2]);
      assert.deepEqual((await rbac.listRoleSourceGroups(t.id, user, viaGroup, { after: g1, limit: 10 })).map((g) => g.id), [g2]);
      assert.deepEqual(await rbac.listRoleSourceGroups(t.id, user, direct, { limit: 10 }), []);
      assert.deepEqual(await rbac.listRoleSourceGroups(t.id, user, unrelated, { limit: 10 }), [], "a group the user is not in does not count");

      const withSources = await rbac.listEffectivePermissions(t.id, user, api.identifier, { limit: 10 });
      assert.deepEqual(withSources, [
        { permission_name: 'p', direct: true, viaRoles: true },
        { permission_name: 'q', direct: true, viaRoles: false },
      ]);
      assert.deepEqual(await rbac.listEffectivePermissions(t.id, user, api.identifier, { after: 'p', limit: 10 }), [withSources[1]]);
    });
  });

  describe('migration 0011, data', () => {
    it("adds Gatehouse's group-member scopes to existing tenants' Management API and to their admin grant only", async () => {
      const adminClientId = randomString(32);
      const otherClientId = randomString(32);
      const row = tenantRow({ settings: { admin_client_id: adminClientId } });
      await db.insertInto('tenants').values(toStored('tenants', row)).execute();
      const audience = `https://${row.domain}/api/v2/`;
      const before = ['read:groups', 'create:groups', 'delete:groups'];
      await db
        .insertInto('resource_servers')
        .values(toStored('resource_servers', resourceServerRow(row.id, { identifier: audience, is_system: 1, scopes: before.map((value) => ({ value, description: value })) })))
        .execute();
      const grant = (id: string, clientId: string, scope: string[]) => ({
        tenant_id: row.id, id, client_id: clientId, audience, scope: JSON.stringify(scope), organization_usage: null, allow_any_organization: null,
        is_system: 0, subject_type: 'client', authorization_details_types: '[]', allow_all_scopes: null, default_for: null, created_at: T0,
      });
      await db.insertInto('client_grants').values([grant('cgr_admin', adminClientId, before), grant('cgr_other', otherClientId, ['create:groups'])]).execute();

      await addGroupMemberScopes(db as unknown as Kysely<unknown>);
      await addGroupMemberScopes(db as unknown as Kysely<unknown>);

      const api = await db.selectFrom('resource_servers').select('scopes').where('tenant_id', '=', row.id).executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(api.scopes), [
        ...before.map((value) => ({ value, description: value })),
        { value: 'create:group_members', description: 'Create Group Members' },
        { value: 'delete:group_members', description: 'Delete Group Members' },
      ]);
      const grants = await db.selectFrom('client_grants').select(['id', 'scope']).where('tenant_id', '=', row.id).orderBy('id').execute();
      assert.deepEqual(grants, [
        { id: 'cgr_admin', scope: JSON.stringify([...before, 'create:group_members', 'delete:group_members']) },
        { id: 'cgr_other', scope: JSON.stringify(['create:groups']) },
      ]);
    });
  });

  describe('cascades', () => {
    /** A tenant where one user, role, group and API are linked every way, plus a second set that must survive. */
    async function linked() {
      const t = await tenant();
      const make = async (identifier: string) => {
        const api = await t.api(identifier, [['x']]);
        const user = await t.user();
        const role = await t.role();
        const group = await t.group();
        await rbac.addRolePermissions(t.id, role, [perm(api.identifier, 'x')], T0);
        await rbac.addUserPermissions(t.id, user, [perm(api.identifier, 'x')], T0);
        await rbac.assignUserRoles(t.id, user, [role], T0);
        await rbac.assignRoleGroups(t.id, role, [group], T0);
        await rbac.addGroupMembers(t.id, group, [user], T0);
        return { api, user, role, group };
      };
      return { t, doomed: await make('https://doomed.example.test/'), kept: await make('https://kept.example.test/') };
    }

    async function counts(tenantId: string) {
      return {
        role_permissions: await count('role_permissions', tenantId),
        user_permissions: await count('user_permissions', tenantId),
        user_roles: await count('user_roles', tenantId),
        group_roles: await count('group_roles', tenantId),
        group_members: await count('group_members', tenantId),
      };
    }

    const BOTH = { role_permissions: 2, user_permissions: 2, user_roles: 2, group_roles: 2, group_members: 2 };

    it('deleting a role removes its permissions, user and group assignments', async () => {
      const { t, doomed, kept } = await linked();
      assert.deepEqual(await counts(t.id), BOTH);
      assert.equal(await roles.delete(t.id, doomed.role), true);
      assert.deepEqual(await counts(t.id), { ...BOTH, role_permissions: 1, user_roles: 1, group_roles: 1 });
      assert.deepEqual(await rbac.effectivePermissions(t.id, kept.user, kept.api.identifier), ['x']);
    });

    it('deleting a user removes their roles, permissions and group memberships', async () => {
      const { t, doomed } = await linked();
      assert.equal(await users.delete(t.id, doomed.user), true);
      assert.deepEqual(await counts(t.id), { ...BOTH, user_permissions: 1, user_roles: 1, group_members: 1 });
      assert.equal(await users.delete(t.id, doomed.user), false);
    });

    it('deleting a group removes its members and roles', async () => {
      const { t, doomed } = await linked();
      assert.equal(await groups.delete(t.id, doomed.group), true);
      assert.deepEqual(await counts(t.id), { ...BOTH, group_roles: 1, group_members: 1 });
    });

    it('deleting an API removes every role and user permission for its identifier', async () => {
      const { t, doomed, kept } = await linked();
      assert.equal(await apis.delete(t.id, doomed.api.id), true);
      assert.deepEqual(await counts(t.id), { ...BOTH, role_permissions: 1, user_permissions: 1 });
      assert.deepEqual(await rbac.effectivePermissions(t.id, doomed.user, doomed.api.identifier), []);
      assert.deepEqual(await rbac.effectivePermissions(t.id, kept.user, kept.api.identifier), ['x']);
      // An API created again with the same identifier starts with no permissions.
      await t.api(doomed.api.identifier, [['x']]);
      assert.deepEqual(await rbac.effectivePermissions(t.id, doomed.user, doomed.api.identifier), []);
    });

    it('the foreign keys refuse an assignment to a row that is gone, and cascade deletes made behind the stores', async () => {
      const { t, doomed } = await linked();
      await assert.rejects(
        db.insertInto('user_roles').values({ tenant_id: t.id, user_id: doomed.user, role_id: newRoleId(), created_at: T0 }).execute(),
      );
      await db.deleteFrom('users').where('tenant_id', '=', t.id).where('user_id', '=', doomed.user).execute();
      await db.deleteFrom('resource_servers').where('tenant_id', '=', t.id).where('id', '=', doomed.api.id).execute();
      assert.deepEqual(await counts(t.id), { role_permissions: 1, user_permissions: 1, user_roles: 1, group_roles: 2, group_members: 1 });
    });
  });
});
