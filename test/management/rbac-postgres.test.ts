/**
 * The RBAC routes on PostgreSQL, whose text cannot hold NUL: a control
 * character in an id, an API identifier or a permission name is refused with
 * a 400 before any query, where it would otherwise fail the query (a 500).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { postgresAvailable, POSTGRES_ADMIN_URL } from '../helpers/postgres.js';
import { badRequest, enc, rbacFixtures } from '../helpers/rbac-fixtures.js';

const PATTERN = '^[^\\u0000-\\u001F\\u007F]*$';
const skip = (await postgresAvailable()) ? false : `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}`;

describe('RBAC routes on PostgreSQL: control characters are a 400', { skip }, () => {
  let t: TestApp;
  let make: ReturnType<typeof rbacFixtures>;

  before(async () => {
    t = await createTestApp({ postgres: true });
    make = rbacFixtures(t);
  });
  after(() => t?.close());

  it('in path ids, body ids, permissions and query parameters', async () => {
    const user = await make.user();
    const role = await make.role();
    const group = await make.group();
    const api = await make.api('https://pg.example.test/', [['p']]);
    const nul = 'a\u0000b';
    const pathNul = encodeURIComponent(nul);

    // NUL is refused for every route before validation (src/platform/http/nul-characters.ts); the other
    // control characters by these routes' id patterns.
    const user404 = await t.management('GET', `/api/v2/users/${pathNul}/roles`);
    assert.deepEqual(user404.json(), badRequest("Path validation error: 'String contains a NUL character' on property id.", 'invalid_uri'));
    const soh = 'a\u0001b';
    const control = await t.management('GET', `/api/v2/users/${encodeURIComponent(soh)}/roles`);
    assert.deepEqual(
      control.json(),
      badRequest(`Path validation error: 'String does not match pattern ${PATTERN}: ${soh}' on property id (ID of the user to list roles for).`, 'invalid_uri'),
    );

    const cases: [string, string, unknown?][] = [
      ['GET', `/api/v2/users/${pathNul}`],
      ['GET', `/api/v2/users/${pathNul}/permissions`],
      ['GET', `/api/v2/users/${pathNul}/effective-roles`],
      ['GET', `/api/v2/users/${pathNul}/groups`],
      ['GET', `/api/v2/roles/${pathNul}/permissions`],
      ['GET', `/api/v2/roles/${pathNul}/users`],
      ['GET', `/api/v2/roles/${pathNul}`],
      ['GET', `/api/v2/groups/grp_${pathNul}1111111111111/members`],
      ['GET', `/api/v2/users/${enc(user)}/effective-permissions?resource_server_identifier=${pathNul}`],
      ['GET', `/api/v2/users/${enc(user)}/effective-permissions/sources/effective-roles?resource_server_identifier=${encodeURIComponent(api.identifier)}&permission_name=${pathNul}`],
      ['GET', `/api/v2/users/${enc(user)}/effective-roles/sources/groups?role_id=${pathNul}`],
      ['POST', `/api/v2/users/${enc(user)}/roles`, { roles: [nul] }],
      ['POST', `/api/v2/roles/${role.id}/users`, { users: [nul] }],
      ['POST', `/api/v2/groups/${group}/members`, { members: [nul] }],
      ['DELETE', `/api/v2/groups/${group}/members`, { members: [nul] }],
      ['POST', `/api/v2/roles/${role.id}/permissions`, { permissions: [{ resource_server_identifier: nul, permission_name: 'p' }] }],
      ['POST', `/api/v2/users/${enc(user)}/permissions`, { permissions: [{ resource_server_identifier: api.identifier, permission_name: nul }] }],
      ['DELETE', `/api/v2/roles/${role.id}/permissions`, { permissions: [{ resource_server_identifier: nul, permission_name: 'p' }] }],
    ];
    for (const [method, url, body] of cases) {
      const res = await t.management(method, url, { ...(body !== undefined && { body }) });
      assert.equal(res.statusCode, 400, `${method} ${url} ${res.body}`);
      assert.match((res.json() as { message: string }).message, /validation error: 'String contains a NUL character'/);
    }
    // The same requests without the control character are answered normally.
    assert.equal((await t.management('POST', `/api/v2/users/${enc(user)}/permissions`, { body: { permissions: [{ resource_server_identifier: api.identifier, permission_name: 'p' }] } })).statusCode, 201);
    assert.deepEqual((await t.management('GET', `/api/v2/users/${enc(user)}/effective-permissions?resource_server_identifier=${encodeURIComponent(api.identifier)}`)).json(), {
      permissions: [{ permission_name: 'p', resource_server_name: `API ${api.identifier}`, resource_server_identifier: api.identifier, sources: ['direct'] }],
    });
  });
});
