/**
 * The service's entity limits through the Management API (src/domain/entity-limits.ts):
 * one call may carry everything an entity may hold (1000 permissions of a
 * role or a user); the write that would pass a limit is refused with 400
 * `entity_limit_exceeded` and changes nothing: the 1001st permission of a
 * role and of a user, the 51st role of a user (from either side), the 1001st
 * scope of an API, the 1001st role of a tenant. Run on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENTITY_LIMITS } from '../../src/domain/entity-limits.js';
import { newRoleId } from '../../src/domain/roles/model.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { badRequest, enc, rbacFixtures } from '../helpers/rbac-fixtures.js';

const limitRefusal = (message: string) => ({ statusCode: 400, error: 'Bad Request', message, errorCode: 'entity_limit_exceeded' });

for (const postgres of [false, true]) {
  describe(`entity limits (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
    let t: TestApp;
    let make: ReturnType<typeof rbacFixtures>;
    /** An API with 1001 scopes is refused, so two APIs carry the 1001 permissions the tests need. */
    let scopes: { identifier: string; name: string }[];

    before(async () => {
      t = await createTestApp({ postgres });
      make = rbacFixtures(t);
      const names = Array.from({ length: ENTITY_LIMITS.scopesPerApi }, (_, i) => `scope:${String(i).padStart(4, '0')}`);
      const first = await make.api('https://limits-a.example.test/', names.map((n) => [n]));
      const second = await make.api('https://limits-b.example.test/', [['extra:0'], ['extra:1']]);
      scopes = [
        ...names.map((name) => ({ identifier: first.identifier, name })),
        { identifier: second.identifier, name: 'extra:0' },
        { identifier: second.identifier, name: 'extra:1' },
      ];
    });
    after(() => t.close());

    const pairs = (from: number, to: number) => scopes.slice(from, to).map((s) => ({ resource_server_identifier: s.identifier, permission_name: s.name }));

    async function total(url: string): Promise<number> {
      const res = await t.management('GET', `${url}?include_totals=true&per_page=1`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as Record<string, number>).total ?? Number.NaN;
    }

    it('a role takes 1000 permissions in one call; the 1001st is refused and nothing changes', async () => {
      const role = await make.role();
      const url = `/api/v2/roles/${role.id}/permissions`;
      const all = await t.management('POST', url, { body: { permissions: pairs(0, 1000) } });
      assert.equal(all.statusCode, 201, all.body);
      assert.equal(await total(url), 1000);
      // Permissions the role holds already do not count twice.
      assert.equal((await t.management('POST', url, { body: { permissions: pairs(990, 1000) } })).statusCode, 201);

      const refused = await t.management('POST', url, { body: { permissions: pairs(999, 1001) } });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), limitRefusal('A role can have at most 1000 permissions'));
      assert.equal(await total(url), 1000, 'nothing added');

      // Room made, the same call passes.
      assert.equal((await t.management('DELETE', url, { body: { permissions: pairs(0, 1) } })).statusCode, 204);
      assert.equal((await t.management('POST', url, { body: { permissions: pairs(999, 1001) } })).statusCode, 201);
      assert.equal(await total(url), 1000);
    });

    it('a user takes 1000 permissions directly; the 1001st is refused', async () => {
      const user = await make.user();
      const url = `/api/v2/users/${enc(user)}/permissions`;
      assert.equal((await t.management('POST', url, { body: { permissions: pairs(1, 1001) } })).statusCode, 201);
      const refused = await t.management('POST', url, { body: { permissions: pairs(0, 1) } });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), limitRefusal('A user can have at most 1000 permissions assigned directly'));
      assert.equal(await total(url), 1000);
    });

    it('a user holds 50 roles directly; the 51st is refused from the user and from the role', async () => {
      const user = await make.user();
      const roles = await Promise.all(Array.from({ length: 51 }, () => make.role()));
      const url = `/api/v2/users/${enc(user)}/roles`;
      assert.equal((await t.management('POST', url, { body: { roles: roles.slice(0, 50).map((r) => r.id) } })).statusCode, 204);
      assert.equal((await t.management('POST', url, { body: { roles: [roles[0]!.id] } })).statusCode, 204, 'a role held already does not count twice');

      const refused = await t.management('POST', url, { body: { roles: [roles[50]!.id] } });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), limitRefusal(`A user can have at most 50 roles assigned directly: ${user}`));

      const other = await make.user();
      const fromRole = await t.management('POST', `/api/v2/roles/${roles[50]!.id}/users`, { body: { users: [other, user] } });
      assert.equal(fromRole.statusCode, 400);
      assert.deepEqual(fromRole.json(), limitRefusal(`A user can have at most 50 roles assigned directly: ${user}`));
      assert.equal(await total(url), 50);
      assert.deepEqual((await t.management('GET', `/api/v2/roles/${roles[50]!.id}/users`)).json(), [], 'nobody assigned, the other user neither');
      assert.equal((await t.management('POST', `/api/v2/roles/${roles[50]!.id}/users`, { body: { users: [other] } })).statusCode, 200);
    });

    it('an API has at most 1000 scopes', async () => {
      const scopeList = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `s:${i}` }));
      const created = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'https://limits-c.example.test/', scopes: scopeList(1001) } });
      assert.equal(created.statusCode, 400);
      assert.deepEqual(
        created.json(),
        badRequest("Payload validation error: 'Array is too long (1001), maximum 1000' on property scopes (List of permissions (scopes) that this API uses.)."),
      );
      const api = await make.api('https://limits-d.example.test/', [['s:0']]);
      const updated = await t.management('PATCH', `/api/v2/resource-servers/${api.id}`, { body: { scopes: scopeList(1001) } });
      assert.equal(updated.statusCode, 400);
      assert.equal((updated.json() as { errorCode: string }).errorCode, 'invalid_body');
      assert.equal((await t.management('PATCH', `/api/v2/resource-servers/${api.id}`, { body: { scopes: scopeList(1000) } })).statusCode, 200);
    });

    it('a tenant has at most 1000 roles; the 1001st is refused', async () => {
      const { count } = await t.ctx.database.db
        .selectFrom('roles')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('tenant_id', '=', t.tenant.id)
        .executeTakeFirstOrThrow();
      const missing = ENTITY_LIMITS.rolesPerTenant - Number(count);
      const now = new Date().toISOString();
      const rows = Array.from({ length: missing }, (_, i) => ({ tenant_id: t.tenant.id, id: newRoleId(), name: `filler-${i}`, description: null, created_at: now }));
      for (let i = 0; i < rows.length; i += 200) await t.ctx.database.db.insertInto('roles').values(rows.slice(i, i + 200)).execute();

      const refused = await t.management('POST', '/api/v2/roles', { body: { name: 'one-too-many' } });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), limitRefusal('A tenant can have at most 1000 roles'));
      assert.deepEqual((await t.management('GET', '/api/v2/roles?name_filter=one-too-many')).json(), []);
      assert.equal((await t.management('DELETE', `/api/v2/roles/${rows[0]!.id}`)).statusCode, 200);
      assert.equal((await t.management('POST', '/api/v2/roles', { body: { name: 'one-too-many' } })).statusCode, 200);
    });
  });
}
