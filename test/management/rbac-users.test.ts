/**
 * A user's roles, permissions, effective permissions and roles, and groups
 * (/api/v2/users/{id}/…) through the real app and database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KyselyRbacStore } from '../../src/storage/kysely/rbac.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import {
  badRequest,
  enc,
  forbidden,
  GROUP_NOT_FOUND,
  permissionNotFound,
  rbacFixtures,
  resourceServerNotFound,
  ROLE_NOT_FOUND,
  USER_NOT_FOUND,
  type Role,
} from '../helpers/rbac-fixtures.js';
import { byCodepoint } from '../helpers/rows.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const NOBODY = `/api/v2/users/${enc('auth0|doesnotexist')}`;
const DIRECT = { source_id: '', source_name: '', source_type: 'DIRECT' };

describe('/api/v2/users/{id}/…', () => {
  let t: TestApp;
  let make: ReturnType<typeof rbacFixtures>;

  before(async () => {
    t = await createTestApp();
    make = rbacFixtures(t);
  });
  after(() => t.close());

  const perm = (resource_server_identifier: string, permission_name: string) => ({ resource_server_identifier, permission_name });

  describe('roles', () => {
    it('POST assigns (204), GET lists the direct roles by id, DELETE unassigns (204)', async () => {
      const user = await make.user();
      const url = `/api/v2/users/${enc(user)}/roles`;
      const roles = [await make.role('viewer', 'Views'), await make.role('editor'), await make.role('admin', 'Everything')].sort((a, b) =>
        byCodepoint(a.id, b.id),
      );

      const refused = await t.management('POST', url, { body: { roles: [roles[0]!.id, 'rol_doesnotexist0000'] } });
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), ROLE_NOT_FOUND);
      assert.deepEqual((await t.management('GET', url)).json(), [], 'nothing assigned');

      const assigned = await t.management('POST', url, { body: { roles: roles.map((r) => r.id) } });
      assert.equal(assigned.statusCode, 204, assigned.body);
      assert.equal(assigned.body, '');
      assert.equal((await t.management('POST', url, { body: { roles: [roles[0]!.id, roles[0]!.id] } })).statusCode, 204, 'repeat');

      assert.deepEqual((await t.management('GET', url)).json(), roles);
      // What the SDK sends, and what the service answers (recorded): {roles, start, limit, total}.
      const totals = await t.management('GET', `${url}?include_totals=true&page=1&per_page=2`);
      assert.deepEqual(totals.json(), { roles: roles.slice(2), start: 2, limit: 2, total: 3 });
      assert.deepEqual(Object.keys(totals.json() as object), ['roles', 'start', 'limit', 'total']);

      const removed = await t.management('DELETE', url, { body: { roles: [roles[1]!.id, 'rol_doesnotexist0000'] } });
      assert.equal(removed.statusCode, 204);
      assert.deepEqual((await t.management('GET', url)).json(), [roles[0], roles[2]]);
      // The role's side agrees.
      assert.deepEqual(((await t.management('GET', `/api/v2/roles/${roles[0]!.id}/users`)).json() as { user_id: string }[]).map((u) => u.user_id), [user]);

      const form = await t.management('DELETE', url, { body: `roles=${roles[0]!.id}`, headers: FORM });
      assert.equal(form.statusCode, 204);
      assert.deepEqual((await t.management('GET', url)).json(), [roles[2]]);
    });

    it('refuses an unknown user (404), bad bodies (400) and tokens without the scopes (403)', async () => {
      const role = await make.role();
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await t.management(method, `${NOBODY}/roles`, { ...(method !== 'GET' && { body: { roles: [role.id] } }) });
        assert.equal(res.statusCode, 404, method);
        assert.deepEqual(res.json(), USER_NOT_FOUND);
      }
      const user = await make.user();
      const url = `/api/v2/users/${enc(user)}/roles`;
      const cases: [string, unknown, string][] = [
        ['POST', {}, "Payload validation error: 'Missing required property: roles'."],
        ['POST', { roles: [] }, "Payload validation error: 'Array is too short (0), minimum 1' on property roles (List of roles IDs to associated with the user)."],
        ['DELETE', { roles: [] }, "Payload validation error: 'Array is too short (0), minimum 1' on property roles (List of roles IDs to remove from the user)."],
        ['POST', { roles: role.id }, "Payload validation error: 'Expected type array but found type string' on property roles (List of roles IDs to associated with the user)."],
        ['POST', { roles: [''] }, "Payload validation error: 'String is too short (0 chars), minimum 1' on property roles[0]."],
        ['POST', { roles: ['r'.repeat(65)] }, "Payload validation error: 'String is too long (65 chars), maximum 64' on property roles[0]."],
        [
          'POST',
          { roles: Array.from({ length: 51 }, () => role.id) },
          "Payload validation error: 'Array is too long (51), maximum 50' on property roles (List of roles IDs to associated with the user).",
        ],
      ];
      for (const [method, body, message] of cases) {
        const res = await t.management(method, url, { body });
        assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(body).slice(0, 60)}`);
        assert.deepEqual(res.json(), badRequest(message));
      }
      const reader = await t.managementToken('read:roles');
      assert.deepEqual((await t.management('GET', url, { token: reader })).json(), forbidden('read:users', 'read:role_members'));
      assert.equal((await t.management('GET', url, { token: await t.managementToken('read:role_members') })).statusCode, 200);
      assert.deepEqual((await t.management('POST', url, { token: reader, body: { roles: [role.id] } })).json(), forbidden('update:users', 'create:role_members'));
      assert.deepEqual((await t.management('DELETE', url, { token: reader, body: { roles: [role.id] } })).json(), forbidden('update:users', 'delete:role_members'));
      assert.equal((await t.management('POST', url, { token: await t.managementToken('create:role_members'), body: { roles: [role.id] } })).statusCode, 204);
      assert.equal((await t.management('DELETE', url, { token: await t.managementToken('delete:role_members'), body: { roles: [role.id] } })).statusCode, 204);
    });
  });

  describe('permissions', () => {
    it('POST adds direct permissions (201 {}); GET lists them with the user’s own roles’ permissions and their sources; DELETE removes (204)', async () => {
      const api = await make.api('https://users-perms.example.test/', [['read', 'Read'], ['write'], ['viaGroup']], 'Perms API');
      const user = await make.user();
      const url = `/api/v2/users/${enc(user)}/permissions`;
      const reader = await make.role('perm-reader');
      const group = await make.group();
      const groupRole = await make.role('group-role');
      await t.management('POST', `/api/v2/roles/${reader.id}/permissions`, { body: { permissions: [perm(api.identifier, 'read'), perm(api.identifier, 'write')] } });
      await t.management('POST', `/api/v2/roles/${groupRole.id}/permissions`, { body: { permissions: [perm(api.identifier, 'viaGroup')] } });
      await t.management('POST', `/api/v2/users/${enc(user)}/roles`, { body: { roles: [reader.id] } });
      await t.management('POST', `/api/v2/roles/${groupRole.id}/groups`, { body: { groups: [group] } });
      await t.management('POST', `/api/v2/groups/${group}/members`, { body: { members: [user] } });

      const added = await t.management('POST', url, { body: { permissions: [perm(api.identifier, 'read')] } });
      assert.equal(added.statusCode, 201, added.body);
      assert.deepEqual(added.json(), {});

      const base = { resource_server_name: 'Perms API', resource_server_identifier: api.identifier };
      const roleSource = { source_id: reader.id, source_name: 'perm-reader', source_type: 'ROLE' };
      const expected = [
        { permission_name: 'read', description: 'Read', ...base, sources: [DIRECT, roleSource] },
        { permission_name: 'write', ...base, sources: [roleSource] },
      ];
      const listed = await t.management('GET', url);
      assert.equal(listed.statusCode, 200);
      assert.deepEqual(listed.json(), expected, 'the group role’s permission is not listed here');
      assert.deepEqual(Object.keys((listed.json() as object[])[0]!), ['permission_name', 'description', 'resource_server_name', 'resource_server_identifier', 'sources']);
      assert.deepEqual((await t.management('GET', `${url}?include_totals=true&per_page=1`)).json(), { permissions: expected.slice(0, 1), start: 0, limit: 1, total: 2 });

      const removed = await t.management('DELETE', url, { body: { permissions: [perm(api.identifier, 'read'), perm(api.identifier, 'write')] } });
      assert.equal(removed.statusCode, 204);
      assert.equal(removed.body, '');
      // `write` was only ever the role's, and `read` still comes from it.
      assert.deepEqual((await t.management('GET', url)).json(), [
        { permission_name: 'read', description: 'Read', ...base, sources: [roleSource] },
        { permission_name: 'write', ...base, sources: [roleSource] },
      ]);
    });

    it('refuses an unknown user, API or scope, all or nothing; scopes read:users and update:users', async () => {
      const api = await make.api('https://users-refusals.example.test/', [['ok']]);
      const good = perm(api.identifier, 'ok');
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await t.management(method, `${NOBODY}/permissions`, { ...(method !== 'GET' && { body: { permissions: [good] } }) });
        assert.equal(res.statusCode, 404, method);
        assert.deepEqual(res.json(), USER_NOT_FOUND);
      }
      const user = await make.user();
      const url = `/api/v2/users/${enc(user)}/permissions`;
      assert.deepEqual((await t.management('POST', url, { body: { permissions: [good, perm('urn:nothing', 'ok')] } })).json(), resourceServerNotFound('urn:nothing'));
      assert.deepEqual((await t.management('POST', url, { body: { permissions: [good, perm(api.identifier, 'OK')] } })).json(), permissionNotFound(api.identifier, 'OK'));
      assert.deepEqual((await t.management('GET', url)).json(), []);
      const empty = await t.management('DELETE', url, { body: { permissions: [] } });
      assert.deepEqual(empty.json(), badRequest("Payload validation error: 'Array is too short (0), minimum 1' on property permissions (List of permissions to remove from this user)."));

      const updater = await t.managementToken('update:users');
      assert.deepEqual((await t.management('GET', url, { token: updater })).json(), forbidden('read:users'));
      assert.deepEqual((await t.management('POST', url, { token: await t.managementToken('read:users'), body: { permissions: [good] } })).json(), forbidden('update:users'));
      assert.equal((await t.management('POST', url, { token: updater, body: { permissions: [good] } })).statusCode, 201);
    });
  });

  describe('effective permissions and roles', () => {
    let api: { id: string; identifier: string };
    let user: string;
    let direct: Role;
    let both: Role;
    let viaGroup: Role;
    let groups: string[];

    before(async () => {
      api = await make.api('https://effective.example.test/', [['a', 'Aye'], ['b'], ['c'], ['d']], 'Effective');
      user = await make.user();
      [direct, both, viaGroup] = [await make.role('direct'), await make.role('both'), await make.role('via-group')];
      groups = [await make.group(), await make.group()].sort(byCodepoint);
      const post = async (url: string, body: unknown) => assert.ok([200, 201, 204].includes((await t.management('POST', url, { body })).statusCode), url);
      await post(`/api/v2/users/${enc(user)}/roles`, { roles: [direct.id, both.id] });
      await post(`/api/v2/roles/${both.id}/groups`, { groups: [groups[0]] });
      await post(`/api/v2/roles/${viaGroup.id}/groups`, { groups });
      for (const g of groups) await post(`/api/v2/groups/${g}/members`, { members: [user] });
      await post(`/api/v2/users/${enc(user)}/permissions`, { permissions: [perm(api.identifier, 'a')] });
      await post(`/api/v2/roles/${direct.id}/permissions`, { permissions: [perm(api.identifier, 'a'), perm(api.identifier, 'b')] });
      await post(`/api/v2/roles/${viaGroup.id}/permissions`, { permissions: [perm(api.identifier, 'b'), perm(api.identifier, 'c')] });
    });

    it('GET effective-permissions: direct, roles (own and groups’), with sources; pages by name', async () => {
      const url = `/api/v2/users/${enc(user)}/effective-permissions?resource_server_identifier=${encodeURIComponent(api.identifier)}`;
      const base = { resource_server_name: 'Effective', resource_server_identifier: api.identifier };
      const all = [
        { permission_name: 'a', description: 'Aye', ...base, sources: ['direct', 'roles'] },
        { permission_name: 'b', ...base, sources: ['roles'] },
        { permission_name: 'c', ...base, sources: ['roles'] },
      ];
      const res = await t.management('GET', url);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { permissions: all });
      // The function token issuance calls agrees.
      assert.deepEqual(await new KyselyRbacStore(t.ctx.database.db).effectivePermissions(t.tenant.id, user, api.identifier), ['a', 'b', 'c']);

      const first = (await t.management('GET', `${url}&take=2`)).json() as { permissions: unknown[]; next: string };
      assert.deepEqual(first.permissions, all.slice(0, 2));
      const last = (await t.management('GET', `${url}&take=2&from=${encodeURIComponent(first.next)}`)).json();
      assert.deepEqual(last, { permissions: all.slice(2) });
      // A checkpoint is bound to its API.
      const otherApi = await t.management('GET', `/api/v2/users/${enc(user)}/effective-permissions?resource_server_identifier=urn:other&from=${encodeURIComponent(first.next)}`);
      assert.equal(otherApi.statusCode, 400);

      assert.deepEqual((await t.management('GET', `/api/v2/users/${enc(user)}/effective-permissions?resource_server_identifier=urn:none`)).json(), { permissions: [] });
      const missing = await t.management('GET', `/api/v2/users/${enc(user)}/effective-permissions`);
      assert.deepEqual(missing.json(), badRequest("Query validation error: 'Missing required property: resource_server_identifier'.", 'invalid_query_string'));
      const nobody = await t.management('GET', `${NOBODY}/effective-permissions?resource_server_identifier=urn:none`);
      assert.deepEqual(nobody.json(), USER_NOT_FOUND);
      assert.deepEqual((await t.management('GET', url, { token: await t.managementToken('read:users') })).json(), forbidden('read:user_effective_permissions'));
    });

    it('GET effective-permissions/sources/effective-roles: the roles granting one permission, with sources', async () => {
      const base = `/api/v2/users/${enc(user)}/effective-permissions/sources/effective-roles?resource_server_identifier=${encodeURIComponent(api.identifier)}`;
      const b = await t.management('GET', `${base}&permission_name=b`);
      assert.equal(b.statusCode, 200, b.body);
      const expected = [
        { ...direct, sources: ['direct'] },
        { ...viaGroup, sources: ['groups'] },
      ].sort((x, y) => byCodepoint(x.id, y.id));
      assert.deepEqual(b.json(), { roles: expected });
      assert.deepEqual((await t.management('GET', `${base}&permission_name=d`)).json(), { roles: [] }, 'held by no role');
      assert.deepEqual((await t.management('GET', `${base}&permission_name=a`)).json(), { roles: [{ ...direct, sources: ['direct'] }] }, 'the direct assignment is no role');
      const page = (await t.management('GET', `${base}&permission_name=b&take=1`)).json() as { roles: unknown[]; next: string };
      assert.deepEqual(page.roles, expected.slice(0, 1));
      assert.deepEqual((await t.management('GET', `${base}&permission_name=b&take=1&from=${encodeURIComponent(page.next)}`)).json(), { roles: expected.slice(1) });
      assert.deepEqual(
        (await t.management('GET', base)).json(),
        badRequest("Query validation error: 'Missing required property: permission_name'.", 'invalid_query_string'),
      );
      assert.deepEqual((await t.management('GET', `${base}&permission_name=b`, { token: await t.managementToken('read:user_effective_permissions') })).json(), forbidden('read:user_permission_source_roles'));
    });

    it('GET effective-roles (sources direct, groups) and effective-roles/sources/groups', async () => {
      const url = `/api/v2/users/${enc(user)}/effective-roles`;
      const expected = [
        { ...direct, sources: ['direct'] },
        { ...both, sources: ['direct', 'groups'] },
        { ...viaGroup, sources: ['groups'] },
      ].sort((x, y) => byCodepoint(x.id, y.id));
      const res = await t.management('GET', url);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { roles: expected });
      assert.deepEqual(Object.keys((res.json() as { roles: object[] }).roles[0]!), ['id', 'name', 'description', 'sources']);
      const page = (await t.management('GET', `${url}?take=2`)).json() as { roles: unknown[]; next: string };
      assert.deepEqual(page.roles, expected.slice(0, 2));
      assert.deepEqual((await t.management('GET', `${url}?take=2&from=${encodeURIComponent(page.next)}`)).json(), { roles: expected.slice(2) });
      assert.deepEqual((await t.management('GET', `${NOBODY}/effective-roles`)).json(), USER_NOT_FOUND);
      assert.deepEqual((await t.management('GET', url, { token: await t.managementToken('read:roles') })).json(), forbidden('read:user_effective_roles'));

      const sources = `/api/v2/users/${enc(user)}/effective-roles/sources/groups`;
      const viaBoth = await t.management('GET', `${sources}?role_id=${viaGroup.id}`);
      assert.equal(viaBoth.statusCode, 200, viaBoth.body);
      const groupBodies = await Promise.all(groups.map(async (g) => (await t.management('GET', `/api/v2/groups/${g}`)).json()));
      assert.deepEqual(viaBoth.json(), { groups: groupBodies });
      assert.deepEqual((await t.management('GET', `${sources}?role_id=${both.id}`)).json(), { groups: groupBodies.slice(0, 1) });
      assert.deepEqual((await t.management('GET', `${sources}?role_id=${direct.id}`)).json(), { groups: [] });
      const firstPage = (await t.management('GET', `${sources}?role_id=${viaGroup.id}&take=1`)).json() as { next: string };
      assert.deepEqual((await t.management('GET', `${sources}?role_id=${viaGroup.id}&take=1&from=${encodeURIComponent(firstPage.next)}`)).json(), {
        groups: groupBodies.slice(1),
      });
      assert.deepEqual((await t.management('GET', `${sources}?role_id=rol_doesnotexist0000`)).json(), ROLE_NOT_FOUND);
      assert.deepEqual((await t.management('GET', `${NOBODY}/effective-roles/sources/groups?role_id=${direct.id}`)).json(), USER_NOT_FOUND);
      assert.deepEqual((await t.management('GET', sources)).json(), badRequest("Query validation error: 'Missing required property: role_id'.", 'invalid_query_string'));
      assert.deepEqual((await t.management('GET', `${sources}?role_id=${direct.id}`, { token: await t.managementToken('read:user_effective_roles') })).json(), forbidden('read:user_role_source_groups'));
    });
  });

  describe('groups', () => {
    it('GET /users/{id}/groups: the user’s groups with membership_created_at, offset or checkpoint, fields', async () => {
      const user = await make.user();
      const url = `/api/v2/users/${enc(user)}/groups`;
      const ids = [await make.group(), await make.group(), await make.group()].sort(byCodepoint);
      for (const g of ids) assert.equal((await t.management('POST', `/api/v2/groups/${g}/members`, { body: { members: [user] } })).statusCode, 204);

      const all = (await t.management('GET', url)).json() as Record<string, string>[];
      assert.deepEqual(all.map((g) => g.id), ids);
      const group = (await t.management('GET', `/api/v2/groups/${ids[0]}`)).json() as Record<string, string>;
      const { membership_created_at, ...rest } = all[0]!;
      assert.deepEqual(rest, group);
      assert.ok(!Number.isNaN(Date.parse(membership_created_at ?? '')));

      assert.deepEqual((await t.management('GET', `${url}?include_totals=true&per_page=2&page=1`)).json(), { groups: all.slice(2), start: 2, limit: 2, total: 3 });
      const sdk = (await t.management('GET', `${url}?include_totals=true&take=2`)).json() as { groups: unknown[]; next: string };
      assert.deepEqual(sdk.groups, all.slice(0, 2));
      assert.deepEqual((await t.management('GET', `${url}?take=2&from=${encodeURIComponent(sdk.next)}`)).json(), { groups: all.slice(2) });
      assert.deepEqual((await t.management('GET', `${url}?fields=id,name`)).json(), all.map((g) => ({ id: g.id, name: g.name })));
      assert.deepEqual(
        ((await t.management('GET', `${url}?fields=membership_created_at,tenant_name&include_fields=false`)).json() as object[]).map((g) => Object.keys(g)),
        all.map(() => ['id', 'name', 'created_at', 'updated_at']),
      );
      assert.deepEqual((await t.management('GET', `${NOBODY}/groups`)).json(), USER_NOT_FOUND);
      assert.deepEqual((await t.management('GET', url, { token: await t.managementToken('read:users') })).json(), forbidden('read:groups'));
    });
  });

  describe('cascades', () => {
    it('DELETE /users/{id} takes the user’s roles, permissions and group memberships with it', async () => {
      const api = await make.api('https://cascade-user.example.test/', [['p']]);
      const user = await make.user();
      const role = await make.role();
      const group = await make.group();
      await t.management('POST', `/api/v2/users/${enc(user)}/roles`, { body: { roles: [role.id] } });
      await t.management('POST', `/api/v2/users/${enc(user)}/permissions`, { body: { permissions: [perm(api.identifier, 'p')] } });
      await t.management('POST', `/api/v2/groups/${group}/members`, { body: { members: [user] } });
      assert.equal(((await t.management('GET', `/api/v2/roles/${role.id}/users`)).json() as unknown[]).length, 1);

      assert.equal((await t.management('DELETE', `/api/v2/users/${enc(user)}`)).statusCode, 204);
      assert.deepEqual((await t.management('GET', `/api/v2/roles/${role.id}/users`)).json(), []);
      assert.deepEqual((await t.management('GET', `/api/v2/groups/${group}/members`)).json(), { members: [] });
      for (const table of ['user_roles', 'user_permissions', 'group_members'] as const) {
        assert.deepEqual(await t.ctx.database.db.selectFrom(table).select('user_id').where('user_id', '=', user).execute(), [], table);
      }
      // A new user with the same id starts with nothing.
      await make.user({ user_id: user });
      assert.deepEqual((await t.management('GET', `/api/v2/users/${enc(user)}/roles`)).json(), []);
    });

    it('a group’s 404 names the group, not the user, when the group is gone', async () => {
      const user = await make.user();
      const res = await t.management('POST', '/api/v2/groups/grp_1111111111111111111111/members', { body: { members: [user] } });
      assert.deepEqual(res.json(), GROUP_NOT_FOUND);
    });
  });
});
