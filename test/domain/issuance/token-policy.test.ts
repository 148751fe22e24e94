/**
 * The token policy (src/domain/issuance/token-policy.ts): what each rule
 * decides for an ordinary API, the tenant's Management API and the built-in
 * admin console's client, and the scopes and connections it grants on a real
 * tenant's stores.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../../helpers/app.js';
import { insertClient } from '../../helpers/fixtures.js';
import { consoleClientId } from '../../../src/domain/console/client.js';
import { NOT_AN_OPERATOR } from '../../../src/domain/console/operator.js';
import { CURRENT_USER_SCOPES } from '../../../src/domain/management-api/current-user.js';
import type { IssuanceApi } from '../../../src/domain/issuance/lookups.js';
import {
  accessTokenFormat,
  defaultUserScopes,
  grantableClientScopes,
  grantableUserScopes,
  loginConnections,
  ORDINARY,
  tokenPolicy,
} from '../../../src/domain/issuance/token-policy.js';
import { OAuthError } from '../../../src/platform/http/errors.js';

const REALM = 'Username-Password-Authentication';
const MANAGEMENT = `https://${DOMAIN}/api/v2/`;
const ORDERS = 'https://orders.example.com';
const PASSWORD = 'Correct horse battery staple 1';

function refusal(description: string) {
  return (error: unknown) => {
    assert.ok(error instanceof OAuthError, String(error));
    assert.equal(error.error, 'access_denied');
    assert.equal(error.description, description);
    return true;
  };
}

describe('token policy', () => {
  let t: TestApp;
  let management: IssuanceApi;
  let orders: IssuanceApi;
  let consoleId: string;
  let appId: string;
  let operatorId: string;
  let plainId: string;

  async function ok<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.body ? res.json() : undefined) as T;
  }

  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_DEFAULT_CONNECTION: '1' } });
    consoleId = consoleClientId(t.tenant.id);
    appId = (await insertClient(t)).client_id;
    await ok('POST', '/api/v2/resource-servers', {
      identifier: ORDERS,
      name: 'Orders',
      scopes: [{ value: 'read:orders' }, { value: 'write:orders' }],
      token_lifetime: 7200,
      signing_alg: 'HS256',
      token_dialect: 'rfc9068_profile_authz',
      enforce_policies: true,
    });
    management = (await t.ctx.lookups.resourceServer(t.tenant.id, MANAGEMENT))!;
    orders = (await t.ctx.lookups.resourceServer(t.tenant.id, ORDERS))!;
    operatorId = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'ops@example.com', password: PASSWORD })).user_id;
    plainId = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'plain@example.com', password: PASSWORD })).user_id;
    const role = await ok<{ id: string }>('POST', '/api/v2/roles', { name: 'support' });
    await ok('POST', `/api/v2/roles/${role.id}/permissions`, {
      permissions: [
        { resource_server_identifier: MANAGEMENT, permission_name: 'read:users' },
        { resource_server_identifier: ORDERS, permission_name: 'read:orders' },
      ],
    });
    await ok('POST', `/api/v2/users/${encodeURIComponent(operatorId)}/roles`, { roles: [role.id] });
    await ok('POST', '/api/v2/connections', { name: 'Another-Database', strategy: 'auth0', enabled_clients: [appId] });
  });
  after(() => t.close());

  describe('the rules', () => {
    it('an ordinary client on an ordinary API gets the API\'s own configuration', () => {
      const policy = tokenPolicy(t.tenant.id, appId, orders);
      assert.deepEqual(policy, ORDINARY);
      assert.deepEqual(accessTokenFormat(policy, orders), { lifetime: 7200, profile: 'rfc9068', permissions: true, signing: 'HS256' });
      assert.deepEqual(defaultUserScopes(policy, orders), ['read:orders', 'write:orders']);
    });

    it('the Management API gives users only the *:current_user* scopes, for its own lifetime', () => {
      const policy = tokenPolicy(t.tenant.id, appId, management);
      assert.deepEqual(policy.rules, ['management-api']);
      assert.equal(policy.userScopes, 'current_user');
      assert.equal(policy.principal, 'user');
      assert.deepEqual(defaultUserScopes(policy, management), CURRENT_USER_SCOPES);
      assert.deepEqual(accessTokenFormat(policy, management), { lifetime: management.row.token_lifetime, profile: 'auth0', permissions: false, signing: 'RS256' });
      // The Management API's side, which has the verified token but not the API's row, reads the same policy.
      assert.equal(tokenPolicy(t.tenant.id, appId, 'management'), policy);
    });

    it('the console on the Management API: operators\' RBAC scopes, an hour at most, the operator principal', () => {
      const policy = tokenPolicy(t.tenant.id, consoleId, management);
      assert.deepEqual(policy.rules, ['console-management-api', 'management-api', 'console']);
      assert.equal(policy.userScopes, 'operator');
      assert.equal(policy.principal, 'operator');
      assert.ok(management.row.token_lifetime > 3600);
      assert.equal(accessTokenFormat(policy, management).lifetime, 3600);
      assert.deepEqual(defaultUserScopes(policy, management), management.scopes);
      assert.equal(tokenPolicy(t.tenant.id, consoleId, 'management'), policy);
    });

    it('the console whatever the API: no consent, no signup, its own connection, refused before the code', () => {
      for (const policy of [tokenPolicy(t.tenant.id, consoleId), tokenPolicy(t.tenant.id, consoleId, orders), tokenPolicy(t.tenant.id, consoleId, management)]) {
        assert.equal(policy.consent, 'skip');
        assert.equal(policy.signup, false);
        assert.equal(policy.connections, 'console');
        assert.equal(policy.refusedBeforeCode, true);
      }
      const onOrders = tokenPolicy(t.tenant.id, consoleId, orders);
      assert.deepEqual(onOrders.rules, ['console']);
      assert.equal(onOrders.userScopes, 'api');
      assert.equal(accessTokenFormat(onOrders, orders).lifetime, 7200);
    });

    it('another tenant\'s console id is an ordinary client here', () => {
      assert.deepEqual(tokenPolicy(t.tenant.id, consoleClientId('another-tenant')), ORDINARY);
      assert.deepEqual(tokenPolicy(t.tenant.id, undefined, 'management').principal, 'user');
    });
  });

  describe('scopes granted to a user', () => {
    const request = (clientId: string, userId: string) => ({ tenantId: t.tenant.id, clientId, userId });

    it('Management API, ordinary client: the *:current_user* scopes asked for, nothing else', async () => {
      const policy = tokenPolicy(t.tenant.id, appId, management);
      const granted = await grantableUserScopes(t.ctx, policy, request(appId, operatorId), management, ['read:users', 'read:current_user', 'update:current_user_metadata']);
      assert.deepEqual(granted, { scopes: ['read:current_user', 'update:current_user_metadata'] });
    });

    it('Management API, console: the operator\'s RBAC permissions asked for; a user holding none is refused', async () => {
      const policy = tokenPolicy(t.tenant.id, consoleId, management);
      const granted = await grantableUserScopes(t.ctx, policy, request(consoleId, operatorId), management, ['read:users', 'create:clients', 'read:current_user']);
      assert.deepEqual(granted, { scopes: ['read:users'] });
      await assert.rejects(grantableUserScopes(t.ctx, policy, request(consoleId, plainId), management, ['read:users']), refusal(NOT_AN_OPERATOR));
    });

    it('an ordinary API with RBAC: the permissions held, and every one held as the `permissions` claim', async () => {
      const policy = tokenPolicy(t.tenant.id, appId, orders);
      const candidates = defaultUserScopes(policy, orders);
      assert.deepEqual(await grantableUserScopes(t.ctx, policy, request(appId, operatorId), orders, candidates), { scopes: ['read:orders'], permissions: ['read:orders'] });
      assert.deepEqual(await grantableUserScopes(t.ctx, policy, request(appId, plainId), orders, candidates), { scopes: [], permissions: [] });
      // The console is an ordinary client on an ordinary API.
      const onOrders = tokenPolicy(t.tenant.id, consoleId, orders);
      assert.deepEqual(await grantableUserScopes(t.ctx, onOrders, request(consoleId, plainId), orders, candidates), { scopes: [], permissions: [] });
    });
  });

  describe('scopes granted to a client', () => {
    it('needs a client grant, and cuts the request down to it', async () => {
      await assert.rejects(
        grantableClientScopes(t.ctx, t.tenant.id, appId, orders, undefined),
        refusal(`Client is not authorized to access "${ORDERS}". You might probably want to create a "client-grant" associated to this API. See: POST /api/v2/client-grants`),
      );
      await ok('POST', '/api/v2/client-grants', { client_id: appId, audience: ORDERS, scope: ['read:orders'] });
      assert.equal((await grantableClientScopes(t.ctx, t.tenant.id, appId, orders, undefined)).scope, 'read:orders');
      assert.equal((await grantableClientScopes(t.ctx, t.tenant.id, appId, orders, 'read:orders write:orders')).scope, 'read:orders');
    });
  });

  describe('login connections', () => {
    it('the console logs in on the tenant\'s database connection, which the stored configuration never enables for it', async () => {
      const connections = await loginConnections(t.ctx.stores.connections, t.tenant.id, consoleId);
      assert.deepEqual(connections.map((c) => c.name), [REALM]);
      // The store is the stored configuration alone: what the Management API reads.
      assert.deepEqual(await t.ctx.stores.connections.enabledForClient(t.tenant.id, consoleId), []);
    });

    it('an ordinary client logs in on the connections enabled for it', async () => {
      const connections = await loginConnections(t.ctx.stores.connections, t.tenant.id, appId);
      assert.deepEqual(connections.map((c) => c.name), ['Another-Database']);
      assert.deepEqual(connections, await t.ctx.stores.connections.enabledForClient(t.tenant.id, appId));
    });
  });
});
