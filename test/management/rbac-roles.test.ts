/** A role's permissions, users and groups (/api/v2/roles/{id}/…) through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
} from '../helpers/rbac-fixtures.js';
import { byCodepoint } from '../helpers/rows.js';

const ROLE_PAIRS = 'array of resource_server_identifier, permission_name pairs';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('/api/v2/roles/{id}/…', () => {
  let t: TestApp;
  let make: ReturnType<typeof rbacFixtures>;

  before(async () => {
    t = await createTestApp();
    make = rbacFixtures(t);
  });
  after(() => t.close());

  describe('permissions', () => {
    it('POST adds (201 {}), GET lists them in (API, name) order as the service shapes them, DELETE removes (204)', async () => {
      const orders = await make.api('https://orders.example.test/', [['read:orders', 'Read orders'], ['write:orders', 'Write orders'], ['refund']], 'Orders');
      const stock = await make.api('https://stock.example.test/', [['read:stock', 'Read stock']], 'Stock');
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/permissions`;

      const added = await t.management('POST', url, {
        body: {
          permissions: [
            { resource_server_identifier: stock.identifier, permission_name: 'read:stock' },
            { resource_server_identifier: orders.identifier, permission_name: 'write:orders' },
            { resource_server_identifier: orders.identifier, permission_name: 'refund' },
            { resource_server_identifier: orders.identifier, permission_name: 'read:orders' },
          ],
        },
      });
      assert.equal(added.statusCode, 201, added.body);
      assert.deepEqual(added.json(), {});

      const expected = [
        { permission_name: 'read:orders', description: 'Read orders', resource_server_name: 'Orders', resource_server_identifier: orders.identifier },
        { permission_name: 'refund', resource_server_name: 'Orders', resource_server_identifier: orders.identifier },
        { permission_name: 'write:orders', description: 'Write orders', resource_server_name: 'Orders', resource_server_identifier: orders.identifier },
        { permission_name: 'read:stock', description: 'Read stock', resource_server_name: 'Stock', resource_server_identifier: stock.identifier },
      ];
      const listed = await t.management('GET', url);
      assert.equal(listed.statusCode, 200);
      assert.deepEqual(listed.json(), expected);
      assert.deepEqual(Object.keys((listed.json() as object[])[0]!), ['permission_name', 'description', 'resource_server_name', 'resource_server_identifier']);

      // What the SDK sends: include_totals=true, page and per_page.
      const totals = await t.management('GET', `${url}?include_totals=true&page=1&per_page=3`);
      assert.deepEqual(totals.json(), { permissions: expected.slice(3), start: 3, limit: 3, total: 4 });
      assert.deepEqual(Object.keys(totals.json() as object), ['permissions', 'start', 'limit', 'total']);
      assert.deepEqual((await t.management('GET', `${url}?page=2&per_page=3`)).json(), []);

      // Adding again changes nothing.
      const again = await t.management('POST', url, { body: { permissions: [{ resource_server_identifier: stock.identifier, permission_name: 'read:stock' }] } });
      assert.equal(again.statusCode, 201);
      assert.equal(((await t.management('GET', url)).json() as unknown[]).length, 4);

      const removed = await t.management('DELETE', url, {
        body: {
          permissions: [
            { resource_server_identifier: orders.identifier, permission_name: 'refund' },
            // Not assigned, or naming nothing at all: skipped.
            { resource_server_identifier: orders.identifier, permission_name: 'never-assigned' },
            { resource_server_identifier: 'https://nothing.example.test/', permission_name: 'x' },
          ],
        },
      });
      assert.equal(removed.statusCode, 204);
      assert.equal(removed.body, '');
      assert.deepEqual((await t.management('GET', url)).json(), [expected[0], expected[2], expected[3]]);
    });

    it('refuses an unknown role (404), an unknown API (404) or scope (400), all or nothing', async () => {
      const api = await make.api('https://refusals.example.test/', [['read']]);
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/permissions`;
      const good = { resource_server_identifier: api.identifier, permission_name: 'read' };

      for (const [method, status] of [
        ['GET', 404],
        ['POST', 404],
        ['DELETE', 404],
      ] as const) {
        const res = await t.management(method, '/api/v2/roles/rol_doesnotexist0000/permissions', {
          ...(method !== 'GET' && { body: { permissions: [good] } }),
        });
        assert.equal(res.statusCode, status, method);
        assert.deepEqual(res.json(), ROLE_NOT_FOUND);
      }

      const unknownApi = await t.management('POST', url, {
        body: { permissions: [good, { resource_server_identifier: 'https://unknown.example.test/', permission_name: 'read' }] },
      });
      assert.equal(unknownApi.statusCode, 404);
      assert.deepEqual(unknownApi.json(), resourceServerNotFound('https://unknown.example.test/'));
      // An empty identifier is a string like any other, and names no API.
      const empty = await t.management('POST', url, { body: { permissions: [{ resource_server_identifier: '', permission_name: 'read' }] } });
      assert.deepEqual(empty.json(), resourceServerNotFound(''));

      const unknownScope = await t.management('POST', url, { body: { permissions: [good, { ...good, permission_name: 'write' }] } });
      assert.equal(unknownScope.statusCode, 400);
      assert.deepEqual(unknownScope.json(), permissionNotFound(api.identifier, 'write'));

      assert.deepEqual((await t.management('GET', url)).json(), [], 'the valid permission of a refused request was not added');
    });

    it('validates the body: required, 1 to 1000 pairs (the entity limit), no other members; a form body cannot carry pairs', async () => {
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/permissions`;
      const pair = { resource_server_identifier: 'https://x.example.test/', permission_name: 'p' };
      const cases: [unknown, string][] = [
        [{}, "Payload validation error: 'Missing required property: permissions'."],
        [{ permissions: [] }, `Payload validation error: 'Array is too short (0), minimum 1' on property permissions (${ROLE_PAIRS}).`],
        [
          { permissions: Array.from({ length: 1001 }, () => pair) },
          `Payload validation error: 'Array is too long (1001), maximum 1000' on property permissions (${ROLE_PAIRS}).`,
        ],
        [{ permissions: [{ ...pair, extra: 1 }] }, "Payload validation error: 'Additional properties not allowed: extra' on property permissions[0]."],
        [{ permissions: [{ permission_name: 'p' }] }, "Payload validation error: 'Missing required property: resource_server_identifier' on property permissions[0]."],
        [
          { permissions: [{ ...pair, permission_name: 7 }] },
          "Payload validation error: 'Expected type string but found type integer' on property permissions[0].permission_name (Name of this permission).",
        ],
        [
          { permissions: [{ ...pair, permission_name: 'p'.repeat(281) }] },
          "Payload validation error: 'String is too long (281 chars), maximum 280' on property permissions[0].permission_name (Name of this permission).",
        ],
        [{ permissions: [pair], role: 'x' }, "Payload validation error: 'Additional properties not allowed: role'."],
      ];
      for (const [body, message] of cases) {
        for (const method of ['POST', 'DELETE']) {
          const res = await t.management(method, url, { body });
          assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(body).slice(0, 80)}`);
          assert.deepEqual(res.json(), badRequest(message));
        }
      }
      const form = await t.management('POST', url, { body: 'permissions=p', headers: FORM });
      assert.equal(form.statusCode, 400);
      assert.deepEqual(
        form.json(),
        badRequest(`Payload validation error: 'Expected type array but found type string' on property permissions (${ROLE_PAIRS}).`),
      );
    });

    it('scopes: read:roles to read, update:roles to change', async () => {
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/permissions`;
      const reader = await t.managementToken('read:roles');
      const updater = await t.managementToken('update:roles');
      const body = { permissions: [{ resource_server_identifier: 'https://x.example.test/', permission_name: 'p' }] };
      assert.deepEqual((await t.management('GET', url, { token: updater })).json(), forbidden('read:roles'));
      for (const method of ['POST', 'DELETE']) {
        const res = await t.management(method, url, { token: reader, body });
        assert.equal(res.statusCode, 403);
        assert.deepEqual(res.json(), forbidden('update:roles'));
      }
      assert.equal((await t.management('GET', url, { token: reader })).statusCode, 200);
      assert.equal((await t.management('DELETE', url, { token: updater, body })).statusCode, 204);
    });
  });

  describe('users', () => {
    it('POST assigns (200 {}), all or nothing; GET pages by user_id, offset or checkpoint; next is absent on the last page', async () => {
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/users`;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await make.user({ name: `Member ${i}`, ...(i % 2 === 0 && { picture: `https://pics.example.test/${i}.png` }) }));
      ids.sort(byCodepoint);

      const missing = await t.management('POST', url, { body: { users: [ids[0], 'auth0|doesnotexist'] } });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), USER_NOT_FOUND);
      assert.deepEqual((await t.management('GET', url)).json(), [], 'nothing assigned');

      const assigned = await t.management('POST', url, { body: { users: ids } });
      assert.equal(assigned.statusCode, 200, assigned.body);
      assert.deepEqual(assigned.json(), {});
      assert.equal((await t.management('POST', url, { body: { users: [ids[0], ids[0]] } })).statusCode, 200, 'repeat and duplicates');
      assert.deepEqual((await t.management('POST', url, { body: { users: [] } })).json(), {}, 'the document sets no minimum');

      const all = (await t.management('GET', url)).json() as Record<string, string>[];
      assert.deepEqual(all.map((u) => u.user_id), ids);
      const first = all[0]!;
      const stored = (await t.management('GET', `/api/v2/users/${enc(ids[0]!)}`)).json() as Record<string, string>;
      assert.deepEqual(first, {
        user_id: stored.user_id,
        email: stored.email,
        ...(stored.picture !== undefined && { picture: stored.picture }),
        name: stored.name,
      });
      assert.deepEqual(Object.keys(all.find((u) => u.picture !== undefined)!), ['user_id', 'email', 'picture', 'name']);

      const totals = await t.management('GET', `${url}?include_totals=true&per_page=2&page=2`);
      assert.deepEqual(totals.json(), { users: all.slice(4), start: 4, limit: 2, total: 5 });

      // Checkpoints: what the SDK sends (include_totals=true&take=…), pages of two.
      const seen: string[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const res = await t.management('GET', `${url}?include_totals=true&take=2${next ? `&from=${encodeURIComponent(next)}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as { users: { user_id: string }[]; next?: string };
        assert.deepEqual(Object.keys(body), body.next === undefined ? ['users'] : ['users', 'next']);
        seen.push(...body.users.map((u) => u.user_id));
        next = body.next;
        pages++;
      } while (next !== undefined);
      assert.deepEqual(seen, ids);
      assert.equal(pages, 3);
      assert.deepEqual((await t.management('GET', `${url}?take=50`)).json(), { users: all });

      // A checkpoint of another list is refused.
      const other = await make.role();
      await t.management('POST', `/api/v2/roles/${other.id}/users`, { body: { users: ids } });
      const page = (await t.management('GET', `/api/v2/roles/${other.id}/users?take=1`)).json() as { next: string };
      const replayed = await t.management('GET', `${url}?take=1&from=${encodeURIComponent(page.next)}`);
      assert.equal(replayed.statusCode, 400);
      assert.deepEqual(
        replayed.json(),
        badRequest("Query validation error: 'Invalid or expired checkpoint' on property from (Optional Id from which to start selection).", 'invalid_query_string'),
      );
    });

    it('refuses an unknown role, a bad body, and a take beyond 100', async () => {
      for (const method of ['GET', 'POST']) {
        const res = await t.management(method, '/api/v2/roles/rol_doesnotexist0000/users', { ...(method === 'POST' && { body: { users: [] } }) });
        assert.equal(res.statusCode, 404, method);
        assert.deepEqual(res.json(), ROLE_NOT_FOUND);
      }
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/users`;
      const description = "user_id's of the users to assign the role to";
      const cases: [unknown, string][] = [
        [{}, "Payload validation error: 'Missing required property: users'."],
        [{ users: 'auth0|x' }, `Payload validation error: 'Expected type array but found type string' on property users (${description}).`],
        [{ users: [''] }, "Payload validation error: 'String is too short (0 chars), minimum 1' on property users[0]."],
        [
          { users: Array.from({ length: 101 }, (_, i) => `auth0|${i}`) },
          `Payload validation error: 'Array is too long (101), maximum 100' on property users (${description}).`,
        ],
      ];
      for (const [body, message] of cases) {
        const res = await t.management('POST', url, { body });
        assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 60));
        assert.deepEqual(res.json(), badRequest(message));
      }
      const take = await t.management('GET', `${url}?take=101`);
      assert.deepEqual(
        take.json(),
        badRequest("Query validation error: 'Value 101 is greater than maximum 100' on property take (Number of results per page. Defaults to 50.).", 'invalid_query_string'),
      );
      // Offset paging reaches the first 1000 members only; checkpoint paging goes on.
      for (const query of ['page=10&per_page=100', 'page=20&per_page=50', 'page=1000&per_page=1']) {
        const deep = await t.management('GET', `${url}?${query}`);
        assert.equal(deep.statusCode, 400, query);
        assert.deepEqual(deep.json(), badRequest('Requesting page exceeds the allowed maximum of 1000 records', 'invalid_paging'));
      }
      assert.equal((await t.management('GET', `${url}?page=9&per_page=100`)).statusCode, 200, 'the last page within the window');
      // A form body with a single user is a one-item list.
      const user = await make.user();
      const form = await t.management('POST', url, { body: `users=${encodeURIComponent(user)}`, headers: FORM });
      assert.equal(form.statusCode, 200, form.body);
      assert.deepEqual(((await t.management('GET', url)).json() as { user_id: string }[]).map((u) => u.user_id), [user]);
    });

    it('scopes: reading members takes read:role_members, or read:users with read:roles; assigning takes update:roles or create:role_members', async () => {
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/users`;
      const cases: [string, number, Record<string, unknown> | undefined][] = [
        ['read:role_members', 200, undefined],
        ['read:users read:roles', 200, undefined],
        ['read:roles', 403, forbidden('read:users', 'read:role_members')],
        ['read:users', 403, forbidden('read:roles', 'read:role_members')],
        ['read:clients', 403, forbidden('read:users', 'read:roles', 'read:role_members')],
      ];
      for (const [scope, status, body] of cases) {
        const res = await t.management('GET', url, { token: await t.managementToken(scope) });
        assert.equal(res.statusCode, status, scope);
        if (body) assert.deepEqual(res.json(), body);
      }
      for (const scope of ['update:roles', 'create:role_members']) {
        assert.equal((await t.management('POST', url, { token: await t.managementToken(scope), body: { users: [] } })).statusCode, 200, scope);
      }
      const denied = await t.management('POST', url, { token: await t.managementToken('read:roles'), body: { users: [] } });
      assert.deepEqual(denied.json(), forbidden('update:roles', 'create:role_members'));
    });
  });

  describe('groups', () => {
    it('POST assigns (204), GET lists {groups, next?} by group id, DELETE unassigns (204); unknown ids refused', async () => {
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/groups`;
      const groups = [await make.group(), await make.group(), await make.group()].sort(byCodepoint);

      const missing = 'grp_1111111111111111111111';
      const refused = await t.management('POST', url, { body: { groups: [groups[0], missing] } });
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), GROUP_NOT_FOUND);
      assert.deepEqual((await t.management('GET', url)).json(), { groups: [] });

      const assigned = await t.management('POST', url, { body: { groups } });
      assert.equal(assigned.statusCode, 204, assigned.body);
      assert.equal(assigned.body, '');
      assert.equal((await t.management('POST', url, { body: { groups: [groups[0]] } })).statusCode, 204, 'repeat');

      const full = (await t.management('GET', url)).json() as { groups: Record<string, string>[] };
      assert.deepEqual(full.groups.map((g) => g.id), groups);
      assert.deepEqual(full.groups[0], (await t.management('GET', `/api/v2/groups/${groups[0]}`)).json());
      const page = (await t.management('GET', `${url}?take=2`)).json() as { groups: { id: string }[]; next: string };
      assert.deepEqual(page.groups.map((g) => g.id), groups.slice(0, 2));
      const last = (await t.management('GET', `${url}?take=2&from=${encodeURIComponent(page.next)}`)).json() as { groups: { id: string }[]; next?: string };
      assert.deepEqual(last, { groups: [full.groups[2]] });

      // The group sees the role too.
      assert.deepEqual(((await t.management('GET', `/api/v2/groups/${groups[1]}/roles`)).json() as { roles: { id: string }[] }).roles.map((r) => r.id), [role.id]);

      const removed = await t.management('DELETE', url, { body: { groups: [groups[1], missing] } });
      assert.equal(removed.statusCode, 204);
      assert.deepEqual(((await t.management('GET', url)).json() as { groups: { id: string }[] }).groups.map((g) => g.id), [groups[0], groups[2]]);

      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await t.management(method, '/api/v2/roles/rol_doesnotexist0000/groups', { ...(method !== 'GET' && { body: { groups } }) });
        assert.equal(res.statusCode, 404, method);
        assert.deepEqual(res.json(), ROLE_NOT_FOUND);
      }
      const description = 'Unique identifier for the group (service-generated)';
      const bad = await t.management('POST', url, { body: { groups: ['grp_0OIl0OIl0OIl0OIl'] } });
      assert.deepEqual(
        bad.json(),
        badRequest(`Payload validation error: 'String does not match pattern ^grp_[1-9a-km-zA-HJ-NP-Z]{14,22}$: grp_0OIl0OIl0OIl0OIl' on property groups[0] (${description}).`),
      );
      const empty = await t.management('DELETE', url, { body: { groups: [] } });
      assert.deepEqual(empty.json(), badRequest("Payload validation error: 'Array is too short (0), minimum 1' on property groups (Array of group IDs to remove from the role)."));
      assert.deepEqual((await t.management('GET', url, { token: await t.managementToken('read:roles') })).json(), forbidden('read:group_roles'));
      assert.deepEqual((await t.management('POST', url, { token: await t.managementToken('read:group_roles'), body: { groups } })).json(), forbidden('create:group_roles'));
      assert.deepEqual((await t.management('DELETE', url, { token: await t.managementToken('create:group_roles'), body: { groups } })).json(), forbidden('delete:group_roles'));
    });
  });

  describe('cascades', () => {
    it('DELETE /roles/{id} takes the role’s permissions, user and group assignments with it', async () => {
      const api = await make.api('https://cascade-role.example.test/', [['p']]);
      const role = await make.role();
      const user = await make.user();
      const group = await make.group();
      await t.management('POST', `/api/v2/roles/${role.id}/permissions`, { body: { permissions: [{ resource_server_identifier: api.identifier, permission_name: 'p' }] } });
      await t.management('POST', `/api/v2/roles/${role.id}/users`, { body: { users: [user] } });
      await t.management('POST', `/api/v2/roles/${role.id}/groups`, { body: { groups: [group] } });
      assert.equal(((await t.management('GET', `/api/v2/users/${enc(user)}/roles`)).json() as unknown[]).length, 1);

      assert.equal((await t.management('DELETE', `/api/v2/roles/${role.id}`)).statusCode, 200);
      assert.deepEqual((await t.management('GET', `/api/v2/users/${enc(user)}/roles`)).json(), []);
      assert.deepEqual((await t.management('GET', `/api/v2/users/${enc(user)}/permissions`)).json(), []);
      assert.deepEqual((await t.management('GET', `/api/v2/groups/${group}/roles`)).json(), { roles: [] });
      for (const table of ['role_permissions', 'user_roles', 'group_roles'] as const) {
        const rows = await t.ctx.database.db.selectFrom(table).select('role_id').where('role_id', '=', role.id).execute();
        assert.deepEqual(rows, [], table);
      }
    });

    it('DELETE /resource-servers/{id} takes every role and user permission for its identifier with it', async () => {
      const api = await make.api('https://cascade-api.example.test/', [['p']]);
      const kept = await make.api('https://cascade-kept.example.test/', [['p']]);
      const role = await make.role();
      const user = await make.user();
      const both = [api, kept].map((a) => ({ resource_server_identifier: a.identifier, permission_name: 'p' }));
      assert.equal((await t.management('POST', `/api/v2/roles/${role.id}/permissions`, { body: { permissions: both } })).statusCode, 201);
      assert.equal((await t.management('POST', `/api/v2/users/${enc(user)}/permissions`, { body: { permissions: both } })).statusCode, 201);

      assert.equal((await t.management('DELETE', `/api/v2/resource-servers/${api.id}`)).statusCode, 204);
      const onlyKept = [{ permission_name: 'p', resource_server_name: `API ${kept.identifier}`, resource_server_identifier: kept.identifier }];
      assert.deepEqual((await t.management('GET', `/api/v2/roles/${role.id}/permissions`)).json(), onlyKept);
      assert.deepEqual(
        (await t.management('GET', `/api/v2/users/${enc(user)}/permissions`)).json(),
        onlyKept.map((p) => ({ ...p, sources: [{ source_id: '', source_name: '', source_type: 'DIRECT' }] })),
      );
    });
  });
});
