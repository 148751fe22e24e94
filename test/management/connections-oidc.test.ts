// OpenID Connect connections through the Management API: options checked, stored and returned as the service
// does (client_secret included), oidc_metadata from discovery, and discovery at a non-public address refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

const METADATA = {
  issuer: 'https://idp.example.com',
  authorization_endpoint: 'https://idp.example.com/auth',
  token_endpoint: 'https://idp.example.com/token',
  jwks_uri: 'https://idp.example.com/jwks',
  id_token_signing_alg_values_supported: ['RS256'],
};

describe('/api/v2/connections: oidc', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const create = (options: Record<string, unknown>, name = 'corp-idp') => t.management('POST', '/api/v2/connections', { body: { name, strategy: 'oidc', options } });

  it('stores the options as given, returns client_secret, and adds the computed members', async () => {
    const res = await create({ client_id: 'gatehouse', client_secret: 's3cret', type: 'back_channel', scope: 'openid email', oidc_metadata: METADATA, domain_aliases: ['corp.example'] });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.equal(created.strategy, 'oidc');
    assert.equal(created.options.client_secret, 's3cret');
    assert.deepEqual(created.options.oidc_metadata, METADATA);
    assert.deepEqual(created.options.attribute_map, { mapping_mode: 'bind_all' });
    assert.equal(created.options.schema_version, 'oidc-V4');
    const read = (await t.management('GET', `/api/v2/connections/${created.id}`)).json();
    assert.equal(read.options.client_secret, 's3cret');
    assert.deepEqual(read.options.domain_aliases, ['corp.example']);
  });

  it('refuses options the service refuses, naming the property', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ oidc_metadata: METADATA }, "Payload validation error: 'is required for an oidc connection' on property options.client_id."],
      [{ client_id: 'x' }, "Payload validation error: 'is required (or issuer, or oidc_metadata)' on property options.discovery_url."],
      [{ client_id: 'x', discovery_url: 'http://idp.example.com/.well-known/openid-configuration' }, "Payload validation error: 'must be an https URL of at most 255 characters' on property options.discovery_url."],
      [{ client_id: 'x', type: 'hybrid', oidc_metadata: METADATA }, "Payload validation error: 'must be one of front_channel, back_channel' on property options.type."],
      [{ client_id: 'x', type: 'back_channel', oidc_metadata: METADATA }, "Payload validation error: 'is required for back_channel (unless token_endpoint_auth_method is private_key_jwt)' on property options.client_secret."],
      [{ client_id: 'x', oidc_metadata: { issuer: 'https://idp.example.com' } }, "Payload validation error: 'has no https authorization_endpoint' on property options.oidc_metadata."],
      [{ client_id: 'x', oidc_metadata: METADATA, token_endpoint_auth_method: 'client_secret_basic' }, "Payload validation error: 'must be client_secret_post or private_key_jwt' on property options.token_endpoint_auth_method."],
      [{ client_id: 'x', oidc_metadata: METADATA, token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'ES256' }, "Payload validation error: 'must be one of RS256, RS384, RS512, PS256, PS384 (ES256 and ES384 are not supported by Gatehouse yet)' on property options.token_endpoint_auth_signing_alg."],
      [{ client_id: 'x', oidc_metadata: METADATA, token_endpoint_jwtca_aud_format: 'audience' }, "Payload validation error: 'must be one of issuer, token_endpoint' on property options.token_endpoint_jwtca_aud_format."],
      [{ client_id: 'x', oidc_metadata: METADATA, upstream_params: { screen_name: { alias: 'password' } } }, `Payload validation error: 'screen_name must be {"value": a string} or {"alias": one of acr_values, audience, client_id, display, id_token_hint, login_hint, max_age, prompt, resource, response_mode, response_type, ui_locales}' on property options.upstream_params.`],
    ];
    for (const [options, message] of cases) {
      const res = await create(options, 'refused');
      assert.equal(res.statusCode, 400, JSON.stringify(options));
      assert.equal(res.json().message, message);
      assert.equal(res.json().errorCode, 'invalid_body');
    }
    const list = (await t.management('GET', '/api/v2/connections?name=refused')).json();
    assert.deepEqual(list, []);
  });

  it('reads discovery through the outbound guard: a loopback discovery_url is refused without GATEHOUSE_OUTBOUND_ALLOW', async () => {
    const res = await create({ client_id: 'x', discovery_url: 'https://127.0.0.1:9/.well-known/openid-configuration' }, 'loopback-idp');
    assert.equal(res.statusCode, 400);
    assert.match(res.json().message, /^Payload validation error: 'the discovery document could not be read \(.*127\.0\.0\.1 is not a public address.*' on property options\.discovery_url\.$/);
    const updated = await t.management('PATCH', `/api/v2/connections/${(await create({ client_id: 'x', oidc_metadata: METADATA }, 'patched-idp')).json().id}`, {
      body: { options: { client_id: 'x', issuer: 'https://[::1]:9' } },
    });
    assert.equal(updated.statusCode, 400);
    assert.match(updated.json().message, /::1 is not a public address/);
  });

  it('okta, waad and google-apps: their required options and rules, refused before any discovery', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['okta', { client_id: 'x', client_secret: 'y' }, "Payload validation error: 'is required for a okta connection' on property options.domain."],
      ['okta', { client_id: 'x', client_secret: 'y', domain: 'https://dev-1.okta.com' }, "Payload validation error: 'must be a host name, without scheme' on property options.domain."],
      ['okta', { client_id: 'x', client_secret: 'y', domain: 'dev-1.okta.com', type: 'front_channel' }, "Payload validation error: 'must be one of back_channel' on property options.type."],
      ['waad', { client_id: 'x', client_secret: 'y' }, "Payload validation error: 'is required unless useCommonEndpoint is true' on property options.tenant_domain."],
      ['waad', { client_id: 'x', client_secret: 'y', useCommonEndpoint: true }, "Payload validation error: 'must be sub with useCommonEndpoint (an oid is unique only within its tenant)' on property options.userid_attribute."],
      ['waad', { client_id: 'x', client_secret: 'y', tenant_domain: 'contoso.com', userid_attribute: 'upn' }, "Payload validation error: 'must be one of oid, sub' on property options.userid_attribute."],
      ['google-apps', { client_id: 'x' }, "Payload validation error: 'is required for a google-apps connection' on property options.domain."],
      ['google-apps', { client_id: 'x', domain: 'example.com', map_user_id_to_id: 'yes' }, "Payload validation error: 'must be a boolean' on property options.map_user_id_to_id."],
    ];
    for (const [strategy, options, message] of cases) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name: 'refused', strategy, options } });
      assert.equal(res.statusCode, 400, `${strategy} ${JSON.stringify(options)}`);
      assert.equal(res.json().message, message);
    }
  });
});

