// /api/v2/connections/{id}/scim-configuration and its tokens: create with the default mapping, get, update,
// delete; tokens shown once and stored hashed, at most two, scoped; refusals (not an enterprise connection,
// bad mapping, bad scopes, short lifetime, missing Management API scopes).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { secretHash } from '../../src/domain/secrets.js';
import { OIDC_METADATA } from '../fixtures/scim-requests.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { keyAndCertificate } from '../helpers/saml.js';


describe('/api/v2/connections/{id}/scim-configuration', () => {
  let t: TestApp;
  let connectionId: string;
  let databaseId: string;
  before(async () => {
    t = await createTestApp();
    const oidc = await t.management('POST', '/api/v2/connections', { body: { name: 'corp-idp', strategy: 'oidc', options: { client_id: 'x', type: 'front_channel', oidc_metadata: OIDC_METADATA } } });
    assert.equal(oidc.statusCode, 201, oidc.body);
    connectionId = oidc.json().id;
    const db = await t.management('POST', '/api/v2/connections', { body: { name: 'db', strategy: 'auth0' } });
    databaseId = db.json().id;
  });
  after(() => t.close());

  const base = () => `/api/v2/connections/${connectionId}/scim-configuration`;

  it('is 404 before it exists, created with the default mapping, read, updated and deleted', async () => {
    assert.equal((await t.management('GET', base())).statusCode, 404);
    const created = await t.management('POST', base(), { body: {} });
    assert.equal(created.statusCode, 201, created.body);
    const config = created.json();
    assert.equal(config.connection_id, connectionId);
    assert.equal(config.connection_name, 'corp-idp');
    assert.equal(config.strategy, 'oidc');
    assert.equal(config.tenant_name, t.tenant.name);
    assert.equal(config.user_id_attribute, 'externalId');
    const defaults = (await t.management('GET', `${base()}/default-mapping`)).json();
    assert.deepEqual(config.mapping, defaults.mapping);
    assert.ok(defaults.mapping.some((m: { scim: string; auth0: string }) => m.scim === 'emails[primary eq true].value' && m.auth0 === 'email'));
    assert.equal((await t.management('POST', base(), { body: {} })).statusCode, 409);

    const mapping = [{ scim: 'userName', auth0: 'username' }, { scim: 'emails[type eq "work"].value', auth0: 'email' }, { scim: 'title', auth0: 'user_metadata.title' }];
    const updated = await t.management('PATCH', base(), { body: { user_id_attribute: 'userName', mapping } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual(updated.json().mapping, mapping);
    const read = (await t.management('GET', base())).json();
    assert.equal(read.user_id_attribute, 'userName');
    assert.deepEqual(read.mapping, mapping);

    assert.equal((await t.management('DELETE', base())).statusCode, 204);
    assert.equal((await t.management('GET', base())).statusCode, 404);
    assert.equal((await t.management('DELETE', base())).statusCode, 404);
  });

  it('refuses a connection that is not enterprise, an unknown connection and a bad mapping', async () => {
    const db = await t.management('POST', `/api/v2/connections/${databaseId}/scim-configuration`, { body: {} });
    assert.equal(db.statusCode, 400);
    assert.match(db.json().message, /SCIM is only available for the strategies samlp, oidc/);
    assert.equal((await t.management('POST', '/api/v2/connections/con_nothing/scim-configuration', { body: {} })).statusCode, 404);
    for (const mapping of [[{ scim: 'userName', auth0: 'password_hash' }], [{ scim: 'emails[type eq "work"', auth0: 'email' }], [{ scim: 'a', auth0: 'email' }, { scim: 'b', auth0: 'email' }]]) {
      const res = await t.management('POST', base(), { body: { mapping } });
      assert.equal(res.statusCode, 400, JSON.stringify(mapping));
      assert.match(res.json().message, /^Invalid mapping provided/);
    }
    assert.equal((await t.management('GET', base())).statusCode, 404);
  });

  it('issues tokens shown once, stored hashed, listed without the secret, at most two, and deletes them', async () => {
    assert.equal((await t.management('POST', `${base()}/tokens`, { body: {} })).statusCode, 404);
    await t.management('POST', base());
    const first = await t.management('POST', `${base()}/tokens`, { body: { scopes: ['get:users', 'post:users'], token_lifetime: 3600 } });
    assert.equal(first.statusCode, 201, first.body);
    const token = first.json();
    assert.match(token.token, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(token.scopes, ['get:users', 'post:users']);
    assert.ok(Date.parse(token.valid_until) - Date.parse(token.created_at) === 3_600_000);
    const stored = await t.ctx.stores.scim.listTokens(t.tenant.id, connectionId);
    assert.equal(stored[0]!.token_hash, secretHash(token.token));
    assert.ok(!JSON.stringify(stored).includes(token.token));
    const all = await t.management('POST', `${base()}/tokens`, { body: {} });
    assert.deepEqual(all.json().scopes, ['get:users', 'post:users', 'put:users', 'patch:users', 'delete:users', 'get:groups', 'post:groups', 'put:groups', 'patch:groups', 'delete:groups']);
    const third = await t.management('POST', `${base()}/tokens`, { body: {} });
    assert.equal(third.statusCode, 409);
    assert.equal(third.json().message, 'Maximum of 2 tokens already issued for this connection');
    const list = (await t.management('GET', `${base()}/tokens`)).json();
    assert.deepEqual(list.map((item: { token_id: string }) => item.token_id), [token.token_id, all.json().token_id]);
    assert.ok(list.every((item: Record<string, unknown>) => item.token === undefined));
    assert.equal((await t.management('DELETE', `${base()}/tokens/${token.token_id}`)).statusCode, 204);
    assert.equal((await t.management('DELETE', `${base()}/tokens/${token.token_id}`)).statusCode, 404);
    assert.equal((await t.management('GET', `${base()}/tokens`)).json().length, 1);
  });

  it('refuses unknown scopes and a lifetime of 900 s or less', async () => {
    const bad = await t.management('POST', `${base()}/tokens`, { body: { scopes: ['get:users', 'read:users'] } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /Invalid scope read:users/);
    const short = await t.management('POST', `${base()}/tokens`, { body: { token_lifetime: 900 } });
    assert.equal(short.statusCode, 400);
    assert.match(short.json().message, /token_lifetime/);
  });

  it('lists the tenant\'s configurations with checkpoint paging', async () => {
    const second = await t.management('POST', '/api/v2/connections', { body: { name: 'corp-idp-2', strategy: 'oidc', options: { client_id: 'x', type: 'front_channel', oidc_metadata: OIDC_METADATA } } });
    const secondId = second.json().id as string;
    await t.management('POST', `/api/v2/connections/${secondId}/scim-configuration`);
    const first = (await t.management('GET', '/api/v2/connections-scim-configurations?take=1')).json();
    assert.equal(first.scim_configurations.length, 1);
    assert.ok(first.next);
    const rest = (await t.management('GET', `/api/v2/connections-scim-configurations?take=1&from=${encodeURIComponent(first.next)}`)).json();
    assert.equal(rest.scim_configurations.length, 1);
    assert.equal(rest.next, undefined);
    const ids = [first.scim_configurations[0].connection_id, rest.scim_configurations[0].connection_id].sort();
    assert.deepEqual(ids, [connectionId, secondId].sort());
    assert.ok([...first.scim_configurations, ...rest.scim_configurations].every((c: { tenant_name: string; mapping: unknown[] }) => c.tenant_name === t.tenant.name && c.mapping.length > 0));
    assert.equal((await t.management('GET', '/api/v2/connections-scim-configurations?from=forged')).statusCode, 400);
  });

  it('goes with its connection, tokens included', async () => {
    const doomed = await t.management('POST', '/api/v2/connections', { body: { name: 'doomed', strategy: 'samlp', options: { signInEndpoint: 'https://idp.example.com/sso', signingCert: (await keyAndCertificate()).certificatePem } } });
    assert.equal(doomed.statusCode, 201, doomed.body);
    const id = doomed.json().id as string;
    assert.equal((await t.management('POST', `/api/v2/connections/${id}/scim-configuration`)).statusCode, 201);
    const token = (await t.management('POST', `/api/v2/connections/${id}/scim-configuration/tokens`, { body: {} })).json().token as string;
    assert.equal((await t.management('DELETE', `/api/v2/connections/${id}`)).statusCode, 204);
    assert.equal(await t.ctx.stores.scim.getConfiguration(t.tenant.id, id), undefined);
    assert.equal(await t.ctx.stores.scim.findToken(t.tenant.id, secretHash(token)), undefined);
  });

  it('takes the document\'s scopes', async () => {
    const readOnly = await t.managementToken('read:scim_config read:scim_token');
    assert.equal((await t.management('GET', base(), { token: readOnly })).statusCode, 200);
    assert.equal((await t.management('GET', `${base()}/tokens`, { token: readOnly })).statusCode, 200);
    const refused = await t.management('POST', `${base()}/tokens`, { token: readOnly, body: {} });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message, /create:scim_token/);
    assert.equal((await t.management('DELETE', base(), { token: readOnly })).statusCode, 403);
  });
});
