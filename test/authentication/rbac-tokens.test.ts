/**
 * RBAC in the tokens: an API with `enforce_policies` gives a user exactly the
 * permissions they hold for it (directly, through their roles, through their
 * groups' roles), the `*_authz` dialects add a `permissions` claim, and a
 * change (a role removed from the user's group) counts from the next token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const SCOPES = ['p:direct', 'p:role', 'p:group', 'p:none'];

describe('RBAC: user tokens for APIs that enforce policies', () => {
  let t: TestApp;
  let app: TestClient;
  let userId: string;
  let groupId: string;
  let groupRoleId: string;
  let counter = 0;

  async function ok<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.body ? res.json() : {}) as T;
  }

  /** An API with the four scopes, and the user's permissions on it: one direct, one through a role, one through the group's role. */
  async function api(settings: Record<string, unknown>): Promise<string> {
    const identifier = `https://rbac${++counter}.example.com`;
    await ok('POST', '/api/v2/resource-servers', { identifier, name: `RBAC ${counter}`, scopes: SCOPES.map((value) => ({ value })), allow_offline_access: true, ...settings });
    const grant = (name: string) => ({ permissions: [{ resource_server_identifier: identifier, permission_name: name }] });
    await ok('POST', `/api/v2/users/${encodeURIComponent(userId)}/permissions`, grant('p:direct'));
    const role = await ok<{ id: string }>('POST', '/api/v2/roles', { name: `user-role-${counter}` });
    await ok('POST', `/api/v2/roles/${role.id}/permissions`, grant('p:role'));
    await ok('POST', `/api/v2/users/${encodeURIComponent(userId)}/roles`, { roles: [role.id] });
    await ok('POST', `/api/v2/roles/${groupRoleId}/permissions`, grant('p:group'));
    return identifier;
  }

  const login = (audience: string, scope?: string) =>
    tokenRequest(t.app, {
      grant_type: PASSWORD_REALM,
      client_id: app.client_id,
      client_secret: app.client_secret,
      username: 'rosa@example.com',
      password: PASSWORD,
      realm: REALM,
      audience,
      ...(scope !== undefined && { scope }),
    });

  async function granted(audience: string, scope?: string): Promise<{ scope: string | undefined; claims: Record<string, unknown>; header: Record<string, unknown>; refresh?: string }> {
    const res = await login(audience, scope);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { access_token: string; scope?: string; refresh_token?: string };
    return { scope: body.scope, claims: decodeJwt(body.access_token), header: decodeProtectedHeader(body.access_token), ...(body.refresh_token && { refresh: body.refresh_token }) };
  }

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: [PASSWORD_REALM, 'refresh_token'] });
    await ok('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    userId = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'rosa@example.com', password: PASSWORD, verify_email: false })).user_id;
    groupId = (await ok<{ id: string }>('POST', '/api/v2/groups', { name: 'engineers' })).id;
    await ok('POST', `/api/v2/groups/${groupId}/members`, { members: [userId] });
    groupRoleId = (await ok<{ id: string }>('POST', '/api/v2/roles', { name: 'group-role' })).id;
    await ok('POST', `/api/v2/groups/${groupId}/roles`, { roles: [groupRoleId] });
  });
  after(() => t.close());

  it('enforce_policies: exactly the permissions held directly, through roles and through groups\' roles', async () => {
    const audience = await api({ enforce_policies: true });
    const all = await granted(audience, SCOPES.join(' '));
    assert.equal(all.scope, 'p:direct p:role p:group');
    assert.equal(all.claims.scope, 'p:direct p:role p:group');
    assert.equal(all.claims.permissions, undefined, 'the access_token dialect carries no permissions claim');
    // No scope parameter: every scope of the API the user holds.
    assert.equal((await granted(audience)).scope, 'p:direct p:role p:group');
    // Asking for some: only those, if held.
    assert.equal((await granted(audience, 'p:role p:none')).scope, 'p:role');
  });

  it('without enforce_policies, any scope the API defines (the service\'s behaviour without RBAC)', async () => {
    const audience = await api({ enforce_policies: false });
    assert.equal((await granted(audience, SCOPES.join(' '))).scope, SCOPES.join(' '));
  });

  it('access_token_authz: a permissions claim with every permission held, whatever was asked; rfc9068_profile_authz too, typ at+jwt', async () => {
    const audience = await api({ enforce_policies: true, token_dialect: 'access_token_authz' });
    const some = await granted(audience, 'p:role');
    assert.equal(some.scope, 'p:role');
    assert.deepEqual(some.claims.permissions, ['p:direct', 'p:role', 'p:group']);
    assert.equal(some.header.typ, 'JWT');
    const rfc = await api({ enforce_policies: true, token_dialect: 'rfc9068_profile_authz' });
    const profiled = await granted(rfc, 'p:direct');
    assert.deepEqual(profiled.claims.permissions, ['p:direct', 'p:role', 'p:group']);
    assert.equal(profiled.header.typ, 'at+jwt');
    assert.equal(profiled.claims.client_id, app.client_id);
  });

  it('DELETE /groups/{id}/roles takes the group role\'s permissions out of the next token, refresh included', async () => {
    const audience = await api({ enforce_policies: true, token_dialect: 'access_token_authz' });
    const before = await granted(audience, `offline_access ${SCOPES.join(' ')}`);
    assert.equal(before.scope, 'p:direct p:role p:group offline_access');
    assert.ok(before.refresh, 'a refresh token');
    await ok('DELETE', `/api/v2/groups/${groupId}/roles`, { roles: [groupRoleId] });
    try {
      const next = await granted(audience, SCOPES.join(' '));
      assert.equal(next.scope, 'p:direct p:role');
      assert.deepEqual(next.claims.permissions, ['p:direct', 'p:role']);
      const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: app.client_id, client_secret: app.client_secret, refresh_token: before.refresh! });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      const body = refreshed.json() as { scope: string; access_token: string };
      assert.equal(body.scope, 'p:direct p:role offline_access');
      assert.deepEqual(decodeJwt(body.access_token).permissions, ['p:direct', 'p:role']);
    } finally {
      await ok('POST', `/api/v2/groups/${groupId}/roles`, { roles: [groupRoleId] });
    }
  });

  it('a permission whose scope the API no longer defines is not granted', async () => {
    const audience = await api({ enforce_policies: true, token_dialect: 'access_token_authz' });
    await ok('PATCH', `/api/v2/resource-servers/${encodeURIComponent(audience)}`, { scopes: [{ value: 'p:direct' }, { value: 'p:group' }] });
    const after = await granted(audience, SCOPES.join(' '));
    assert.equal(after.scope, 'p:direct p:group');
    assert.deepEqual(after.claims.permissions, ['p:direct', 'p:group']);
  });

  it('client_credentials under access_token_authz: the permissions are the scopes granted to the client', async () => {
    const audience = await api({ token_dialect: 'access_token_authz' });
    const machine = await insertClient(t);
    await ok('POST', '/api/v2/client-grants', { client_id: machine.client_id, audience, scope: ['p:none', 'p:role'] });
    const res = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(decodeJwt((res.json() as { access_token: string }).access_token).permissions, ['p:none', 'p:role']);
  });
});
