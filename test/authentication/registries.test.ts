/**
 * The Authentication API is built from its registries, and discovery is
 * derived from them: a grant, client-authentication method or response mode
 * added to the lists is served and advertised, with nothing else to edit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClientAuthMethod } from '../../src/authentication/client-auth/method.js';
import { defaultRegistries } from '../../src/authentication/registries.js';
import type { GrantHandler } from '../../src/authentication/token/grant.js';
import { oauthErrors } from '../../src/platform/http/errors.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const FAKE_GRANT = 'urn:example:params:oauth:grant-type:fake';
const CALLBACK = 'https://app.example.com/callback';

/** A grant that answers with the parameter it declared, to show what reached it. */
const fakeGrant: GrantHandler = {
  grantType: FAKE_GRANT,
  parameters: ['thing'],
  requiresConfidentialClient: true,
  async handle({ params, client }) {
    if (!params.thing) throw oauthErrors.invalidRequest('Missing required parameter: thing');
    return { access_token: `fake:${client.client.row.client_id}:${params.thing}:${Object.keys(params).sort().join(',')}`, expires_in: 60, token_type: 'Bearer' };
  },
};

/** A method that authenticates with an `x-example-key` header equal to the client's secret. */
const headerKey: ClientAuthMethod = {
  name: 'example_header_key',
  parameters: [],
  confidential: true,
  advertised: true,
  detect(request, params) {
    const key = request.headers['x-example-key'];
    return typeof key === 'string' && params.client_id ? { method: 'example_header_key', clientId: params.client_id, secret: key } : undefined;
  },
  async verify(_ctx, _tenant, client, credentials) {
    if (credentials.secret !== client.secret) throw oauthErrors.clientUnauthorized();
  },
};

describe('registries: what is listed is served and advertised', () => {
  let t: TestApp;
  let client: TestClient;

  before(async () => {
    const defaults = defaultRegistries();
    t = await createTestApp({
      registries: {
        ...defaults,
        grants: [...defaults.grants, fakeGrant],
        clientAuthMethods: [headerKey, ...defaults.clientAuthMethods],
        responseModes: [...defaults.responseModes, { ...defaults.responseModes[0]!, name: 'query.example' }],
        // OAuth 2.0 Multiple Response Type Encoding Practices §4: nothing but state (and errors) comes back.
        responseTypes: [...defaults.responseTypes, 'none'],
      },
    });
    client = await insertClient(t, { grant_types: [FAKE_GRANT] });
  });
  after(() => t.close());

  it('discovery lists the added grant, method and response mode', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, string[]>;
    assert.ok(doc.grant_types_supported!.includes(FAKE_GRANT));
    assert.ok(doc.token_endpoint_auth_methods_supported!.includes('example_header_key'));
    assert.ok(!doc.token_endpoint_auth_methods_supported!.includes('none'), 'none is not advertised, as the service does');
    assert.ok(doc.response_modes_supported!.includes('query.example'));
    assert.ok(doc.response_types_supported!.includes('none'));
  });

  it('/authorize accepts the added response mode and response type, and answers through the added mode', async () => {
    const web = await insertClient(t, { grant_types: ['authorization_code'], app_type: 'regular_web', config: { callbacks: [CALLBACK] } });
    const authorize = (extra: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, state: 's1', prompt: 'none', ...extra })}`, headers: { host: DOMAIN } });
    // Without a session, prompt=none gets login_required: the request passed validation and came back through its mode.
    for (const extra of [{ response_type: 'code', response_mode: 'query.example' }, { response_type: 'none' }] as Record<string, string>[]) {
      const res = await authorize(extra);
      assert.equal(res.statusCode, 302, res.body);
      const location = new URL(res.headers.location as string);
      assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
      assert.equal(location.searchParams.get('error'), 'login_required', JSON.stringify(extra));
      assert.equal(location.searchParams.get('state'), 's1');
    }
    const unknown = new URL((await authorize({ response_type: 'code', response_mode: 'query.other' })).headers.location as string);
    assert.equal(unknown.searchParams.get('error_description'), 'Unsupported response_mode: query.other', 'a mode not in the registry is still refused');
  });

  it('the token endpoint runs the added grant with only the parameters it declared', async () => {
    const res = await tokenRequest(t.app, { grant_type: FAKE_GRANT, client_id: client.client_id, client_secret: client.client_secret, thing: 'x', other: 'ignored' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { access_token: string }).access_token, `fake:${client.client_id}:x:client_id,client_secret,grant_type,thing`);
    const repeated = await tokenRequest(t.app, `grant_type=${encodeURIComponent(FAKE_GRANT)}&client_id=${client.client_id}&client_secret=${client.client_secret}&thing=a&thing=b`, { form: true });
    assert.equal(repeated.statusCode, 400);
    assert.deepEqual(repeated.json(), { error: 'invalid_request', error_description: 'Parameter thing must not be repeated' });
    const otherRepeated = await tokenRequest(t.app, `grant_type=${encodeURIComponent(FAKE_GRANT)}&client_id=${client.client_id}&client_secret=${client.client_secret}&thing=a&other=1&other=2`, { form: true });
    assert.equal(otherRepeated.statusCode, 200, 'a parameter the grant does not read may repeat');
  });

  it('the added client-authentication method authenticates the clients registered for it, and only those', async () => {
    const keyed = await insertClient(t, { grant_types: [FAKE_GRANT], client_authentication_methods: { example_header_key: {} } });
    const ok = await tokenRequest(t.app, { grant_type: FAKE_GRANT, client_id: keyed.client_id, thing: 'y' }, { headers: { 'x-example-key': keyed.client_secret } });
    assert.equal(ok.statusCode, 200, ok.body);
    const wrongKey = await tokenRequest(t.app, { grant_type: FAKE_GRANT, client_id: keyed.client_id, thing: 'y' }, { headers: { 'x-example-key': 'nope' } });
    assert.equal(wrongKey.statusCode, 401);
    const withSecret = await tokenRequest(t.app, { grant_type: FAKE_GRANT, client_id: keyed.client_id, client_secret: keyed.client_secret, thing: 'y' });
    assert.deepEqual(withSecret.json(), {
      error: 'invalid_client',
      error_description: 'This client must authenticate with example_header_key; client_secret_post is not allowed for it',
    });
    // A client registered for the secret methods may not use the new one.
    const other = await tokenRequest(t.app, { grant_type: FAKE_GRANT, client_id: client.client_id, thing: 'y' }, { headers: { 'x-example-key': client.client_secret } });
    assert.deepEqual(other.json(), {
      error: 'invalid_client',
      error_description: 'This client must authenticate with client_secret_basic or client_secret_post; example_header_key is not allowed for it',
    });
  });
});
