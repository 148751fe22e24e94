/**
 * Groups in an organization and their roles there (/organizations/{id}/groups,
 * …/groups/{group_id}/roles), through real logins (/authorize, the login page,
 * the token endpoint): a role the member's connection group holds in an
 * organization is in the member's token (`permissions` and scope) for logins
 * to that organization only, and leaves it (new logins and refreshes) when the
 * group loses the role. Refusals: a group that is not the organization's, an
 * unknown role or organization, a missing scope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { newGroupId } from '../../src/domain/groups/model.js';
import { isoAt } from '../../src/platform/clock.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';
import { postgresAvailable } from '../helpers/postgres.js';

const REALM = 'acme-directory';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const API = 'https://reports.example.com';

const postgresSkip = (await postgresAvailable()) ? false : 'PostgreSQL is not reachable';

for (const database of ['SQLite', 'PostgreSQL'] as const) describe(`organization group roles in tokens (${database})`, { skip: database === 'PostgreSQL' && postgresSkip }, () => {
  let t: TestApp;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let clientId: string;
  let connectionId: string;
  let acme: string;
  let globex: string;
  let initech: string;
  let finance: string;
  let tenantGroup: string;
  let writer: string;
  let memberId: string;

  const api = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, { ...(body !== undefined && { body }) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as Record<string, unknown>) : {};
  };

  /** A login of the member through /authorize (with `organization` when given), then the code exchanged; the access token's claims and the refresh token. */
  async function login(organization?: string): Promise<{ access: JWTPayload; refreshToken: string }> {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
      scope: 'openid offline_access read:reports write:reports',
      audience: API,
      ...(organization !== undefined && { organization }),
    });
    let res: LightMyRequestResponse = await browser.get(`/authorize?${query}`);
    assert.equal(res.statusCode, 302, res.body);
    const page = await browser.get(res.headers.location as string);
    res = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'member@acme.example', password: PASSWORD });
    while (res.statusCode === 302 && (res.headers.location as string).startsWith('/')) res = await browser.get(res.headers.location as string);
    const code = redirectParams(res, CALLBACK).get('code');
    assert.ok(code, res.headers.location as string);
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.equal(tokens.statusCode, 200, tokens.body);
    const body = tokens.json() as { access_token: string; refresh_token: string };
    return { access: (await jwtVerify(body.access_token, jwks, { audience: API })).payload, refreshToken: body.refresh_token };
  }

  const refresh = async (refreshToken: string): Promise<JWTPayload> => {
    const res = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
    assert.equal(res.statusCode, 200, res.body);
    return (await jwtVerify((res.json() as { access_token: string }).access_token, jwks, { audience: API })).payload;
  };

  before(async () => {
    t = await createTestApp({ postgres: database === 'PostgreSQL' });
    await api('POST', '/api/v2/resource-servers', {
      identifier: API,
      name: 'Reports',
      scopes: [{ value: 'read:reports' }, { value: 'write:reports' }],
      enforce_policies: true,
      token_dialect: 'access_token_authz',
      allow_offline_access: true,
      skip_consent_for_verifiable_first_party_clients: true,
    });
    clientId = (await api('POST', '/api/v2/clients', {
      name: 'Reports app',
      app_type: 'spa',
      is_first_party: true,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      callbacks: [CALLBACK],
      organization_usage: 'allow',
    })).client_id as string;
    connectionId = (await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [clientId] })).id as string;
    const member = (memberId = (await api('POST', '/api/v2/users', { connection: REALM, email: 'member@acme.example', password: PASSWORD })).user_id as string);
    acme = ((await api('POST', '/api/v2/organizations', { name: 'acme' })) as { id: string }).id;
    globex = ((await api('POST', '/api/v2/organizations', { name: 'globex' })) as { id: string }).id;
    initech = ((await api('POST', '/api/v2/organizations', { name: 'initech' })) as { id: string }).id;
    for (const org of [acme, globex]) {
      await api('POST', `/api/v2/organizations/${org}/enabled_connections`, { connection_id: connectionId, assign_membership_on_login: false });
      await api('POST', `/api/v2/organizations/${org}/members`, { members: [member] });
    }
    // A group of the connection, as its directory provisions them (test/authentication/scim-groups.test.ts does so through SCIM).
    finance = newGroupId();
    const now = isoAt(t.ctx.now());
    await t.ctx.stores.groups.insert({ tenant_id: t.tenant.id, id: finance, name: 'Finance', description: null, external_id: 'fin-1', connection_id: connectionId, organization_id: null, created_at: now, updated_at: now });
    await api('POST', `/api/v2/groups/${finance}/members`, { members: [member] });
    tenantGroup = (await api('POST', '/api/v2/groups', { name: 'Everyone' })).id as string;
    await api('POST', `/api/v2/groups/${tenantGroup}/members`, { members: [member] });
    writer = (await api('POST', '/api/v2/roles', { name: 'Report writer' })).id as string;
    await api('POST', `/api/v2/roles/${writer}/permissions`, { permissions: [{ resource_server_identifier: API, permission_name: 'write:reports' }] });
    jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('lists the organization\'s groups: those of the connections enabled for it', async () => {
    for (const org of [acme, globex]) {
      const groups = await api('GET', `/api/v2/organizations/${org}/groups`);
      assert.deepEqual((groups.groups as { id: string; connection_id: string }[]).map((g) => [g.id, g.connection_id]), [[finance, connectionId]]);
    }
    assert.deepEqual((await api('GET', `/api/v2/organizations/${initech}/groups`)).groups, []);
  });

  it('a role of the group in the organization is in the member\'s token for that organization only, and leaves it when the group loses it', async () => {
    const before = await login(acme);
    assert.equal(before.access.org_id, acme);
    assert.deepEqual(before.access.permissions, []);

    await api('POST', `/api/v2/organizations/${acme}/groups/${finance}/roles`, { roles: [writer] });
    const roles = await api('GET', `/api/v2/organizations/${acme}/groups/${finance}/roles`);
    assert.deepEqual((roles.roles as { id: string }[]).map((r) => r.id), [writer]);
    // The tenant-wide roles of the group are another list: it has none.
    assert.deepEqual((await api('GET', `/api/v2/groups/${finance}/roles`)).roles, []);

    // The member's effective roles in acme, and the group they come through; none in globex.
    const effective = await api('GET', `/api/v2/organizations/${acme}/members/${encodeURIComponent(memberId)}/effective-roles`);
    assert.deepEqual(effective.roles, [{ id: writer, name: 'Report writer', description: null, sources: ['groups'] }]);
    const sources = await api('GET', `/api/v2/organizations/${acme}/members/${encodeURIComponent(memberId)}/effective-roles/sources/groups?role_id=${writer}`);
    assert.deepEqual((sources.groups as { id: string }[]).map((g) => g.id), [finance]);
    assert.deepEqual((await api('GET', `/api/v2/organizations/${globex}/members/${encodeURIComponent(memberId)}/effective-roles`)).roles, []);

    const inAcme = await login(acme);
    assert.deepEqual(inAcme.access.permissions, ['write:reports']);
    assert.match(String(inAcme.access.scope), /(^| )write:reports( |$)/);
    // Never outside that organization: another organization's login, a login without one.
    const inGlobex = await login(globex);
    assert.equal(inGlobex.access.org_id, globex);
    assert.deepEqual(inGlobex.access.permissions, []);
    const alone = await login();
    assert.equal(alone.access.org_id, undefined);
    assert.deepEqual(alone.access.permissions, []);
    assert.doesNotMatch(String(alone.access.scope), /write:reports/);

    await api('DELETE', `/api/v2/organizations/${acme}/groups/${finance}/roles`, { roles: [writer] });
    assert.deepEqual((await api('GET', `/api/v2/organizations/${acme}/groups/${finance}/roles`)).roles, []);
    const afterRemoval = await login(acme);
    assert.deepEqual(afterRemoval.access.permissions, []);
    assert.doesNotMatch(String(afterRemoval.access.scope), /write:reports/);
    // A refresh of the earlier session's token no longer carries it either.
    const refreshed = await refresh(inAcme.refreshToken);
    assert.equal(refreshed.org_id, acme);
    assert.deepEqual(refreshed.permissions, []);
  });

  it('a role the member holds in the organization itself is in that organization\'s tokens too', async () => {
    const member = (await api('GET', `/api/v2/users-by-email?email=${encodeURIComponent('member@acme.example')}`)) as unknown as { user_id: string }[];
    const userId = member[0]!.user_id;
    await api('POST', `/api/v2/organizations/${acme}/members/${encodeURIComponent(userId)}/roles`, { roles: [writer] });
    try {
      const effective = await api('GET', `/api/v2/organizations/${acme}/members/${encodeURIComponent(userId)}/effective-roles`);
      assert.deepEqual((effective.roles as { sources: string[] }[]).map((r) => r.sources), [['direct']]);
      assert.deepEqual((await login(acme)).access.permissions, ['write:reports']);
      assert.deepEqual((await login(globex)).access.permissions, []);
    } finally {
      await api('DELETE', `/api/v2/organizations/${acme}/members/${encodeURIComponent(userId)}/roles`, { roles: [writer] });
    }
    assert.deepEqual((await login(acme)).access.permissions, []);
  });

  it('refuses a group that is not the organization\'s, an unknown role or organization, and a token without the scope', async () => {
    const post = (org: string, group: string, roles: string[], token?: string) =>
      t.management('POST', `/api/v2/organizations/${org}/groups/${group}/roles`, { body: { roles }, ...(token !== undefined && { token }) });
    const tenantWide = await post(acme, tenantGroup, [writer]);
    assert.equal(tenantWide.statusCode, 404, tenantWide.body);
    assert.equal(tenantWide.json().message, 'Group not found.');
    assert.equal((await post(initech, finance, [writer])).statusCode, 404, 'the connection is not enabled for initech');
    const deleted = (await api('POST', '/api/v2/roles', { name: 'Deleted' })).id as string;
    await api('DELETE', `/api/v2/roles/${deleted}`);
    const unknownRole = await post(acme, finance, [deleted]);
    assert.equal(unknownRole.statusCode, 404, unknownRole.body);
    assert.equal((await post('org_doesnotexist00000', finance, [writer])).statusCode, 404);
    assert.equal((await post(acme, finance, [])).statusCode, 400);
    const readOnly = await t.managementToken('read:organization_group_roles');
    const refused = await post(acme, finance, [writer], readOnly);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.match(refused.json().message, /create:organization_group_roles/);
    assert.deepEqual((await api('GET', `/api/v2/organizations/${acme}/groups/${finance}/roles`)).roles, []);
    // Effective roles: an unknown organization, a user who is not a member.
    assert.equal((await t.management('GET', `/api/v2/organizations/org_doesnotexist00000/members/${encodeURIComponent(memberId)}/effective-roles`)).statusCode, 404);
    assert.equal((await t.management('GET', `/api/v2/organizations/${initech}/members/${encodeURIComponent(memberId)}/effective-roles`)).statusCode, 404);
    assert.equal((await t.management('GET', `/api/v2/organizations/${acme}/members/${encodeURIComponent(memberId)}/effective-roles/sources/groups`)).statusCode, 400, 'role_id is required');
  });
});
