/** /api/v2/roles through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

interface Role {
  id: string;
  name: string;
  description: string | null;
}

describe('/api/v2/roles', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  async function createRole(body: Record<string, unknown>): Promise<Role> {
    const res = await t.management('POST', '/api/v2/roles', { body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Role;
  }

  it('creates (200, as the service answers), with the description null when none is given; gets, updates, deletes (200 {})', async () => {
    const res = await t.management('POST', '/api/v2/roles', { body: { name: 'Lifecycle', description: 'Reads things' } });
    assert.equal(res.statusCode, 200, res.body);
    const role = res.json() as Role;
    assert.match(role.id, /^rol_[A-Za-z0-9]{16}$/);
    assert.deepEqual(role, { id: role.id, name: 'Lifecycle', description: 'Reads things' });
    assert.deepEqual(Object.keys(role), ['id', 'name', 'description']);

    const bare = await createRole({ name: 'Bare' });
    assert.deepEqual(bare, { id: bare.id, name: 'Bare', description: null });

    const got = await t.management('GET', `/api/v2/roles/${role.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), role);

    const renamed = await t.management('PATCH', `/api/v2/roles/${role.id}`, { body: { name: 'Lifecycle 2' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(renamed.json(), { ...role, name: 'Lifecycle 2' });
    const described = await t.management('PATCH', `/api/v2/roles/${bare.id}`, { body: { description: 'Now described' } });
    assert.deepEqual(described.json(), { id: bare.id, name: 'Bare', description: 'Now described' });
    const unchanged = await t.management('PATCH', `/api/v2/roles/${bare.id}`, { body: {} });
    assert.equal(unchanged.statusCode, 200);
    assert.deepEqual(unchanged.json(), described.json());

    const deleted = await t.management('DELETE', `/api/v2/roles/${role.id}`);
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual(deleted.json(), {});
    // The SDKs send `{}` as the body of a DELETE.
    const again = await t.management('DELETE', `/api/v2/roles/${bare.id}`, { body: {} });
    assert.equal(again.statusCode, 200);

    for (const [method, id] of [
      ['GET', role.id],
      ['PATCH', role.id],
      ['DELETE', role.id],
      ['GET', 'rol_doesnotexist00'],
    ] as const) {
      const gone = await t.management(method, `/api/v2/roles/${id}`, method === 'PATCH' ? { body: { name: 'x' } } : {});
      assert.equal(gone.statusCode, 404, `${method} ${id}`);
      // Recorded from the service without an errorCode (go-auth0 TestRoleManager_Delete).
      assert.deepEqual(gone.json(), { statusCode: 404, error: 'Not Found', message: 'The role does not exist.' });
    }
  });

  it('accepts form bodies', async () => {
    const res = await t.management('POST', '/api/v2/roles', {
      body: 'name=Form%20role&description=From%20a%20form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const role = res.json() as Role;
    assert.deepEqual(role, { id: role.id, name: 'Form role', description: 'From a form' });
    const patched = await t.management('PATCH', `/api/v2/roles/${role.id}`, {
      body: 'description=Changed',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual(patched.json(), { ...role, description: 'Changed' });
  });

  it('names are unique in the tenant: 409 on create and on rename', async () => {
    const first = await createRole({ name: 'Unique' });
    const other = await createRole({ name: 'Other' });
    const conflict = { statusCode: 409, error: 'Conflict', message: 'The role already exists.', errorCode: 'conflict' };
    const dup = await t.management('POST', '/api/v2/roles', { body: { name: 'Unique' } });
    assert.equal(dup.statusCode, 409);
    assert.deepEqual(dup.json(), conflict);
    const rename = await t.management('PATCH', `/api/v2/roles/${other.id}`, { body: { name: 'Unique' } });
    assert.equal(rename.statusCode, 409);
    assert.deepEqual(rename.json(), conflict);
    // Renaming a role to its own name is no conflict.
    const same = await t.management('PATCH', `/api/v2/roles/${first.id}`, { body: { name: 'Unique' } });
    assert.equal(same.statusCode, 200);
  });

  it('refuses invalid bodies with the service messages', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v2/roles', {}, "Payload validation error: 'Missing required property: name'."],
      ['POST', '/api/v2/roles', { name: '' }, "Payload validation error: 'String is too short (0 chars), minimum 1' on property name (Name of the role)."],
      ['POST', '/api/v2/roles', { name: 7 }, "Payload validation error: 'Expected type string but found type integer' on property name (Name of the role)."],
      ['POST', '/api/v2/roles', { name: 'x', permissions: [] }, "Payload validation error: 'Additional properties not allowed: permissions'."],
      [
        'PATCH',
        '/api/v2/roles/rol_doesnotexist00',
        { description: null },
        "Payload validation error: 'Expected type string but found type null' on property description (Description of the role).",
      ],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await t.management(method, url, { body });
      assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(body)}: ${res.body}`);
      assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_body' });
    }
  });

  it('lists by id as an array or {roles, start, limit, total} (the recorded key order), pages, and filters by name case-insensitively', async () => {
    const fresh = await createTestApp();
    try {
      const made: Role[] = [];
      for (const name of ['Alpha Reader', 'beta', 'GAMMA READER', 'delta']) {
        const res = await fresh.management('POST', '/api/v2/roles', { body: { name } });
        made.push(res.json() as Role);
      }
      // Listed by id, byte-wise.
      made.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const readers = made.filter((r) => r.name.toLowerCase().includes('reader'));
      const plain = await fresh.management('GET', '/api/v2/roles');
      assert.equal(plain.statusCode, 200);
      assert.deepEqual(plain.json(), made);

      const totals = await fresh.management('GET', '/api/v2/roles?include_totals=true&per_page=2&page=1');
      const body = totals.json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['roles', 'start', 'limit', 'total']);
      assert.deepEqual(body, { roles: made.slice(2), start: 2, limit: 2, total: 4 });

      const beyond = await fresh.management('GET', '/api/v2/roles?per_page=2&page=5');
      assert.deepEqual(beyond.json(), []);

      const filtered = await fresh.management('GET', '/api/v2/roles?name_filter=reader&include_totals=true');
      assert.deepEqual(filtered.json(), { roles: readers, start: 0, limit: 50, total: 2 });

      const tooMany = await fresh.management('GET', '/api/v2/roles?per_page=101');
      assert.equal(tooMany.statusCode, 400);
      assert.equal((tooMany.json() as { errorCode: string }).errorCode, 'invalid_query_string');
    } finally {
      await fresh.close();
    }
  });

  it('needs a token (401) with the operation scope (403)', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v2/roles', headers: { host: DOMAIN } });
    assert.equal(missing.statusCode, 401);
    assert.deepEqual(missing.json(), { statusCode: 401, error: 'Unauthorized', message: 'Missing authentication' });

    const role = await createRole({ name: 'Scoped' });
    const reader = await t.managementToken('read:roles');
    const cases: [string, string, string, unknown][] = [
      ['GET', '/api/v2/roles', 'read:roles', undefined],
      ['GET', `/api/v2/roles/${role.id}`, 'read:roles', undefined],
      ['POST', '/api/v2/roles', 'create:roles', { name: 'Nope' }],
      ['PATCH', `/api/v2/roles/${role.id}`, 'update:roles', { name: 'Nope' }],
      ['DELETE', `/api/v2/roles/${role.id}`, 'delete:roles', undefined],
    ];
    const groupsOnly = await t.managementToken('read:groups delete:group_roles');
    for (const [method, url, scope, body] of cases) {
      const token = scope === 'read:roles' ? groupsOnly : reader;
      const res = await t.management(method, url, { token, ...(body !== undefined && { body }) });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.deepEqual(res.json(), {
        statusCode: 403,
        error: 'Forbidden',
        message: `Insufficient scope, expected any of: ${scope}`,
        errorCode: 'insufficient_scope',
      });
    }
    const allowed = await t.management('GET', `/api/v2/roles/${role.id}`, { token: reader });
    assert.equal(allowed.statusCode, 200);
  });
});
