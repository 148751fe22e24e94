/**
 * Actions at the token endpoint, through app.inject on the real app, real
 * sandbox processes and the real database: post-login for password-realm
 * logins (claims, scopes, metadata, deny, an action's error), and
 * credentials-exchange for client_credentials (claim, deny codes).
 * Restricted and reserved claims never reach a token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { bindActions, deployAction } from '../helpers/actions.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const API = 'https://api.example.com/';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

describe('Actions at the token endpoint', () => {
  let t: TestApp;
  let app: TestClient;
  let machine: TestClient;
  let userId: string;

  const login = (extra: Record<string, string> = {}) =>
    tokenRequest(t.app, {
      grant_type: PASSWORD_REALM,
      client_id: app.client_id,
      client_secret: app.client_secret,
      username: 'alice@example.com',
      password: PASSWORD,
      realm: REALM,
      audience: API,
      scope: 'openid profile read:things',
      ...extra,
    });

  const machineToken = (audience = API) => tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience });

  before(async () => {
    t = await createTestApp();
    const api = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'Example API', scopes: [{ value: 'read:things' }, { value: 'extra:things' }] } });
    assert.equal(api.statusCode, 201, api.body);
    app = await insertClient(t, { grant_types: ['password', PASSWORD_REALM] });
    machine = await insertClient(t, { grant_types: ['client_credentials'] });
    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience: API, scope: ['read:things'] } });
    assert.equal(grant.statusCode, 201, grant.body);
    const connection = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(connection.statusCode, 201, connection.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD, app_metadata: { plan: 'free', old: 1 } } });
    assert.equal(user.statusCode, 201, user.body);
    userId = (user.json() as { user_id: string }).user_id;
    const role = await t.management('POST', '/api/v2/roles', { body: { name: 'editor' } });
    assert.equal(role.statusCode, 200, role.body);
    const assigned = await t.management('POST', `/api/v2/users/${encodeURIComponent(userId)}/roles`, { body: { roles: [(role.json() as { id: string }).id] } });
    assert.equal(assigned.statusCode, 204, assigned.body);
  });
  after(() => t.close());

  it('post-login runs on the refresh_token exchange: oauth2-refresh-token, no redirect; its claims are the new tokens\'; a deny refuses it and rotates nothing', async () => {
    const apis = (await t.management('GET', '/api/v2/resource-servers')).json() as { id: string; identifier: string }[];
    const patched = await t.management('PATCH', `/api/v2/resource-servers/${apis.find((a) => a.identifier === API)!.id}`, { body: { allow_offline_access: true } });
    assert.equal(patched.statusCode, 200, patched.body);
    const refresher = await insertClient(t, { grant_types: [PASSWORD_REALM, 'refresh_token'], config: { refresh_token: { rotation_type: 'rotating', expiration_type: 'expiring', leeway: 0, token_lifetime: 3600, infinite_token_lifetime: false, idle_token_lifetime: 3600, infinite_idle_token_lifetime: false } } });
    const enabled = await t.management('PATCH', `/api/v2/connections/${((await t.management('GET', `/api/v2/connections?name=${REALM}`)).json() as { id: string }[])[0]!.id}`, { body: { enabled_clients: [app.client_id, refresher.client_id] } });
    assert.equal(enabled.statusCode, 200, enabled.body);
    await bindActions(t, 'post-login', [
      {
        name: 'refresh',
        code: `exports.onExecutePostLogin = async (event, api) => {
          if (event.transaction.protocol !== 'oauth2-refresh-token') return;
          if (event.user.app_metadata.refresh_blocked) return api.access.deny('refresh refused by policy');
          api.idToken.setCustomClaim('https://example.com/refreshed', event.transaction.protocol + ' ' + api.redirect.canRedirect());
          api.accessToken.setCustomClaim('https://example.com/refreshed', true);
        };`,
      },
    ]);
    const first = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: refresher.client_id, client_secret: refresher.client_secret, username: 'alice@example.com', password: PASSWORD, realm: REALM, audience: API, scope: 'openid offline_access read:things' });
    assert.equal(first.statusCode, 200, first.body);
    const { refresh_token: refreshToken, id_token: firstId } = first.json() as { refresh_token: string; id_token: string };
    assert.equal(decodeJwt(firstId)['https://example.com/refreshed'], undefined, 'not on the password login');
    const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: refresher.client_id, client_secret: refresher.client_secret, refresh_token: refreshToken });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    const body = refreshed.json() as { id_token: string; access_token: string; refresh_token: string };
    assert.equal(decodeJwt(body.id_token)['https://example.com/refreshed'], 'oauth2-refresh-token false');
    assert.equal(decodeJwt(body.access_token)['https://example.com/refreshed'], true);

    const blocked = await t.management('PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, { body: { app_metadata: { refresh_blocked: true } } });
    assert.equal(blocked.statusCode, 200, blocked.body);
    const denied = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: refresher.client_id, client_secret: refresher.client_secret, refresh_token: body.refresh_token });
    assert.equal(denied.statusCode, 403, denied.body);
    assert.deepEqual(denied.json(), { error: 'access_denied', error_description: 'refresh refused by policy' });
    await t.management('PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, { body: { app_metadata: { refresh_blocked: null } } });
    // The refused exchange did not rotate the token: it still works.
    const again = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: refresher.client_id, client_secret: refresher.client_secret, refresh_token: body.refresh_token });
    assert.equal(again.statusCode, 200, again.body);
    await bindActions(t, 'post-login', []);
  });

  it('post-login: claims in both tokens, scopes, roles and secrets in the event; restricted and reserved claims dropped', async () => {
    await bindActions(t, 'post-login', [
      {
        name: 'claims',
        secrets: { NS: 'https://example.com/' },
        code: `exports.onExecutePostLogin = async (event, api) => {
          const ns = event.secrets.NS;
          api.idToken.setCustomClaim(ns + 'roles', event.authorization.roles);
          api.idToken.setCustomClaim('favourite_colour', 'blue');
          api.idToken.setCustomClaim('sub', 'someone-else');
          api.idToken.setCustomClaim('https://auth0.com/claim', 1);
          api.accessToken.setCustomClaim(ns + 'email', event.user.email);
          api.accessToken.setCustomClaim('iss', 'https://evil.example/');
          api.accessToken.addScope('extra:things');
          api.accessToken.removeScope('read:things');
          api.idToken.setCustomClaim(ns + 'transaction', event.transaction.protocol + ' ' + event.client.client_id);
        };`,
      },
    ]);
    const res = await login();
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { access_token: string; id_token: string; scope: string };
    const id = decodeJwt(body.id_token);
    assert.deepEqual(id['https://example.com/roles'], ['editor']);
    assert.equal(id.favourite_colour, 'blue', 'a non-namespaced claim is allowed in the ID token');
    assert.equal(id.sub, userId);
    assert.equal(id['https://auth0.com/claim'], undefined);
    assert.equal(id['https://example.com/transaction'], `oauth2-password ${app.client_id}`);
    const access = decodeJwt(body.access_token);
    assert.equal(access['https://example.com/email'], 'alice@example.com');
    assert.equal(access.iss, `https://tenant.test/`);
    assert.equal(body.scope, 'openid profile extra:things');
    assert.equal(access.scope, 'openid profile extra:things');
  });

  it('post-login: metadata set by several actions is written once at the end; null deletes', async () => {
    await bindActions(t, 'post-login', [
      { name: 'first', code: "exports.onExecutePostLogin = async (event, api) => { api.user.setAppMetadata('plan', 'pro'); api.user.setUserMetadata('theme', 'dark'); };" },
      { name: 'second', code: "exports.onExecutePostLogin = async (event, api) => { api.user.setAppMetadata('old', null); api.idToken.setCustomClaim('https://example.com/plan', event.user.app_metadata.plan); };" },
    ]);
    const res = await login();
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(decodeJwt((res.json() as { id_token: string }).id_token)['https://example.com/plan'], 'free', 'the event shows the metadata before the flow');
    const user = (await t.management('GET', `/api/v2/users/${encodeURIComponent(userId)}`)).json() as { app_metadata: unknown; user_metadata: unknown };
    assert.deepEqual(user.app_metadata, { plan: 'pro' });
    assert.deepEqual(user.user_metadata, { theme: 'dark' });
  });

  it('post-login: api.access.deny refuses the login with its reason, and later actions do not run', async () => {
    await bindActions(t, 'post-login', [
      { name: 'deny', code: "exports.onExecutePostLogin = async (event, api) => { if (event.request.body.username) api.access.deny('Logins from here are blocked'); };" },
      { name: 'after', code: "exports.onExecutePostLogin = async (event, api) => { api.user.setAppMetadata('after_ran', true); };" },
    ]);
    const res = await login();
    assert.equal(res.statusCode, 403, res.body);
    assert.deepEqual(res.json(), { error: 'access_denied', error_description: 'Logins from here are blocked' });
    const user = (await t.management('GET', `/api/v2/users/${encodeURIComponent(userId)}`)).json() as { app_metadata: Record<string, unknown> };
    assert.equal(user.app_metadata.after_ran, undefined);
  });

  it('post-login: an uncaught error is access_denied with its message, logged with the execution id', async () => {
    await bindActions(t, 'post-login', [{ name: 'broken', code: "exports.onExecutePostLogin = async (event, api) => { throw new Error('the CRM is down'); };" }]);
    const res = await login();
    assert.equal(res.statusCode, 403, res.body);
    assert.deepEqual(res.json(), { error: 'access_denied', error_description: 'the CRM is down' });
    await t.ctx.tenantLogs.flush();
    const logs = (await t.management('GET', '/api/v2/logs?q=type:actions_execution_failed')).json() as { type: string; details: { execution_id: string; action_name: string } }[];
    assert.ok(logs.length >= 1, JSON.stringify(logs));
    assert.match(logs[0]!.details.action_name, /^broken-/);
    assert.match(logs[0]!.details.execution_id, /^[A-Za-z0-9]{32}$/);
    const execution = await t.management('GET', `/api/v2/actions/executions/${logs[0]!.details.execution_id}`);
    assert.equal(execution.statusCode, 200, execution.body);
    const recorded = execution.json() as { trigger_id: string; results: { error?: { msg: string } }[] };
    assert.equal(recorded.trigger_id, 'post-login');
    assert.equal(recorded.results[0]!.error?.msg, 'the CRM is down');
  });

  it('post-login: a handler that is not async is refused with the service message', async () => {
    await bindActions(t, 'post-login', [{ name: 'sync', code: 'exports.onExecutePostLogin = function (event, api) {};' }]);
    const res = await login();
    assert.equal(res.statusCode, 403);
    assert.match((res.json() as { error_description: string }).error_description, /^Invalid function signature for the "onExecutePostLogin" handler/);
    await bindActions(t, 'post-login', []);
    assert.equal((await login()).statusCode, 200, 'with no action bound the login goes on');
  });

  it('POST /actions/actions/{id}/test runs the draft on the given event and answers its api calls, logs and error', async () => {
    const id = await deployAction(t, 'post-login', { name: 'tested', secrets: { GREETING: 'hi' }, code: "exports.onExecutePostLogin = async (event, api) => { console.log(event.secrets.GREETING, event.user.email); if (!event.user.email) throw new TypeError('no email'); api.idToken.setCustomClaim('https://example.com/e', event.user.email); };" });
    const ok = await t.management('POST', `/api/v2/actions/actions/${id}/test`, { body: { payload: { event: { user: { email: 'x@example.com' } } } } });
    assert.equal(ok.statusCode, 200, ok.body);
    const payload = (ok.json() as { payload: { commands: unknown; logs: string; error?: unknown; stats: Record<string, number> } }).payload;
    assert.deepEqual(payload.commands, [{ method: 'idToken.setCustomClaim', args: ['https://example.com/e', 'x@example.com'] }]);
    assert.equal(payload.logs, 'hi x@example.com\n');
    assert.equal(payload.error, undefined);
    assert.equal(typeof payload.stats.action_duration_ms, 'number');
    const failed = await t.management('POST', `/api/v2/actions/actions/${id}/test`, { body: { payload: { event: { user: {} } } } });
    assert.equal(failed.statusCode, 200, failed.body);
    assert.deepEqual((failed.json() as { payload: { error: { name: string; message: string } } }).payload.error.message, 'no email');
    const missing = await t.management('POST', '/api/v2/actions/actions/00000000-0000-4000-8000-000000000000/test', { body: { payload: {} } });
    assert.equal(missing.statusCode, 404, missing.body);
  });

  it('credentials-exchange: a claim in the client_credentials token; restricted claims dropped', async () => {
    await bindActions(t, 'credentials-exchange', [
      {
        name: 'tenant-claim',
        code: `exports.onExecuteCredentialsExchange = async (event, api) => {
          api.accessToken.setCustomClaim('https://example.com/tenant', event.client.client_id + ':' + event.resource_server.identifier);
          api.accessToken.setCustomClaim('plain', 'x');
          api.accessToken.setCustomClaim('gty', 'forged');
        };`,
      },
    ]);
    const res = await machineToken();
    assert.equal(res.statusCode, 200, res.body);
    const access = decodeJwt((res.json() as { access_token: string }).access_token);
    assert.equal(access['https://example.com/tenant'], `${machine.client_id}:${API}`);
    assert.equal(access.plain, 'x');
    assert.equal(access.gty, 'client-credentials');
  });

  it('credentials-exchange: access.deny answers its code and reason', async () => {
    // The admin client's Management API tokens pass (the tests' own calls).
    const onlyApi = (body: string) => `exports.onExecuteCredentialsExchange = async (event, api) => { if (event.resource_server.identifier === '${API}') { ${body} } };`;
    await bindActions(t, 'credentials-exchange', [{ name: 'deny', code: onlyApi("api.access.deny('invalid_request', 'Not on weekends');") }]);
    const res = await machineToken();
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'invalid_request', error_description: 'Not on weekends' });
    await bindActions(t, 'credentials-exchange', [{ name: 'bad-code', code: onlyApi("api.access.deny('unauthorized', 'x');") }]);
    const refused = await machineToken();
    assert.equal(refused.statusCode, 403);
    assert.match((refused.json() as { error_description: string }).error_description, /must be one of invalid_scope, invalid_request, server_error/);
    await bindActions(t, 'credentials-exchange', []);
  });
});
