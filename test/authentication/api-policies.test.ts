/**
 * What an API's (resource server's) settings do to the tokens users and
 * clients get for it: `allow_offline_access`, `skip_consent_for_verifiable_first_party_clients`,
 * `subject_type_authorization` (who may get tokens at all), and RBAC
 * (`enforce_policies`, the `*_authz` token dialects) in ./rbac-tokens.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

describe('API settings and the tokens issued for it', () => {
  let t: TestApp;
  let app: TestClient;
  let machine: TestClient;
  let counter = 0;

  async function api(settings: Record<string, unknown>): Promise<string> {
    const identifier = `https://api${++counter}.example.com`;
    const res = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier, name: `API ${counter}`, scopes: [{ value: 'read:a' }, { value: 'write:a' }], ...settings },
    });
    assert.equal(res.statusCode, 201, res.body);
    return identifier;
  }

  const login = (audience: string, scope = 'openid read:a write:a') =>
    tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'uma@example.com', password: PASSWORD, realm: REALM, audience, scope });

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, {
      app_type: 'regular_web',
      grant_types: [PASSWORD_REALM, 'authorization_code', 'refresh_token'],
      config: { callbacks: [CALLBACK] },
    });
    machine = await insertClient(t);
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'uma@example.com', password: PASSWORD, verify_email: false } });
    assert.equal(user.statusCode, 201, user.body);
  });
  after(() => t.close());

  it('allow_offline_access: false yields no refresh token; true does', async () => {
    for (const [allow, expected] of [[false, undefined], [true, 'string']] as const) {
      const audience = await api({ allow_offline_access: allow });
      const res = await login(audience, 'openid read:a offline_access');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { refresh_token?: string; scope: string };
      assert.equal(typeof body.refresh_token === 'string' ? 'string' : undefined, expected, `allow_offline_access ${allow}`);
      assert.equal(body.scope, allow ? 'openid read:a offline_access' : 'openid read:a');
    }
  });

  it('skip_consent_for_verifiable_first_party_clients: false asks a first-party client\'s user; true does not', async () => {
    const asks = await api({ skip_consent_for_verifiable_first_party_clients: false });
    const skips = await api({ skip_consent_for_verifiable_first_party_clients: true });
    const browser = new Browser(t);
    const first = await browser.login(authorizeUrl(app.client_id, CALLBACK, { audience: asks, scope: 'read:a' }), 'uma@example.com', PASSWORD);
    assert.equal(first.statusCode, 302, first.body);
    assert.match(first.headers.location as string, /^\/consent\?state=/, 'the consent page');
    const skipped = await browser.get(authorizeUrl(app.client_id, CALLBACK, { audience: skips, scope: 'read:a' }));
    assert.ok(redirectParams(skipped, CALLBACK).get('code'), 'a code without consent');
    // OpenID Connect scopes alone never ask a first-party client's user.
    const oidc = await browser.get(authorizeUrl(app.client_id, CALLBACK, { scope: 'openid profile' }));
    assert.ok(redirectParams(oidc, CALLBACK).get('code'));
  });

  describe('subject_type_authorization', () => {
    it('user policy deny_all: every user flow is refused; client flows are not affected', async () => {
      const audience = await api({ subject_type_authorization: { user: { policy: 'deny_all' } } });
      const res = await login(audience);
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { error: 'access_denied', error_description: `The API "${audience}" does not allow user access` });
      const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience, scope: ['read:a'] } });
      assert.equal(grant.statusCode, 201, grant.body);
      const cc = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience });
      assert.equal(cc.statusCode, 200, cc.body);
    });

    it('user policy require_client_grant: refused without a user client grant; with one, its scopes bound the token', async () => {
      const audience = await api({ subject_type_authorization: { user: { policy: 'require_client_grant' } } });
      const refused = await login(audience);
      assert.equal(refused.statusCode, 403);
      assert.equal((refused.json() as { error: string }).error, 'access_denied');
      assert.match((refused.json() as { error_description: string }).error_description, /not authorized to access .* on behalf of users/);
      const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: app.client_id, audience, scope: ['read:a'], subject_type: 'user' } });
      assert.equal(grant.statusCode, 201, grant.body);
      const res = await login(audience);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((res.json() as { scope: string }).scope, 'openid read:a', 'write:a is outside the grant');
      assert.equal(decodeJwt((res.json() as { access_token: string }).access_token).scope, 'openid read:a');
    });

    it('client policy deny_all: client_credentials is refused even with a client grant', async () => {
      const audience = await api({ subject_type_authorization: { client: { policy: 'deny_all' } } });
      const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience, scope: ['read:a'] } });
      assert.equal(grant.statusCode, 201, grant.body);
      const cc = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience });
      assert.equal(cc.statusCode, 403);
      assert.deepEqual(cc.json(), { error: 'access_denied', error_description: `The API "${audience}" does not allow client access` });
      assert.equal((await login(audience)).statusCode, 200, 'users are not affected');
    });
  });
});
