/** /api/v2/resource-servers through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

describe('/api/v2/resource-servers', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('lists the system Management API, as an array and with totals', async () => {
    const plain = await t.management('GET', '/api/v2/resource-servers');
    assert.equal(plain.statusCode, 200);
    const list = plain.json() as { identifier: string; is_system: boolean; scopes: { value: string }[] }[];
    const system = list.find((rs) => rs.identifier === `https://${DOMAIN}/api/v2/`);
    assert.ok(system, 'the Management API is listed');
    assert.equal(system.is_system, true);
    assert.ok(system.scopes.some((s) => s.value === 'read:clients'));
    assert.ok(system.scopes.some((s) => s.value === 'delete:group_roles'));

    const totals = await t.management('GET', '/api/v2/resource-servers?page=0&per_page=50&include_totals=true');
    const body = totals.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['total', 'start', 'limit', 'resource_servers']);
    assert.equal(body.total, 1);
    assert.equal(body.limit, 50);
  });

  it('creates (201) with the service defaults, gets by id and by identifier, updates, deletes (204)', async () => {
    const created = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier: 'https://orders.example.com/', name: 'Orders', scopes: [{ value: 'read:orders', description: 'Read orders' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const rs = created.json() as Record<string, unknown>;
    assert.match(rs.id as string, /^[0-9a-f]{24}$/);
    assert.equal(rs.signing_alg, 'RS256');
    assert.equal(rs.token_lifetime, 86400);
    assert.equal(rs.token_lifetime_for_web, 7200);
    assert.equal(rs.is_system, false);
    assert.equal(rs.allow_offline_access, false);
    assert.equal(rs.token_dialect, 'access_token');
    assert.equal(rs.signing_secret, undefined);

    const byId = await t.management('GET', `/api/v2/resource-servers/${rs.id as string}`);
    assert.deepEqual(byId.json(), rs);
    const byIdentifier = await t.management('GET', `/api/v2/resource-servers/${encodeURIComponent('https://orders.example.com/')}`);
    assert.deepEqual(byIdentifier.json(), rs);

    const updated = await t.management('PATCH', `/api/v2/resource-servers/${rs.id as string}`, {
      body: { name: 'Orders API', token_lifetime: 600, allow_offline_access: true },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    const u = updated.json() as Record<string, unknown>;
    assert.equal(u.name, 'Orders API');
    assert.equal(u.token_lifetime, 600);
    assert.equal(u.token_lifetime_for_web, 600);
    assert.equal(u.allow_offline_access, true);
    assert.equal(u.identifier, 'https://orders.example.com/');

    // token_lifetime_for_web, sent back by deploy tools as it was read: taken up to token_lifetime.
    const web = await t.management('PATCH', `/api/v2/resource-servers/${rs.id as string}`, { body: { token_lifetime_for_web: 300 } });
    assert.equal((web.json() as Record<string, unknown>).token_lifetime_for_web, 300, web.body);
    const above = await t.management('PATCH', `/api/v2/resource-servers/${rs.id as string}`, { body: { token_lifetime_for_web: 601 } });
    assert.equal(above.statusCode, 400);
    assert.deepEqual(above.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: 'token_lifetime_for_web cannot be greater than token_lifetime.',
      errorCode: 'invalid_body',
    });
    const forWeb = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'https://web.example.com/', token_lifetime: 900, token_lifetime_for_web: 60 } });
    assert.equal(forWeb.statusCode, 201, forWeb.body);
    assert.equal((forWeb.json() as Record<string, unknown>).token_lifetime_for_web, 60);

    const deleted = await t.management('DELETE', `/api/v2/resource-servers/${rs.id as string}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const gone = await t.management('GET', `/api/v2/resource-servers/${rs.id as string}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), {
      statusCode: 404,
      error: 'Not Found',
      message: 'The resource server does not exist',
      errorCode: 'inexistent_resource_server',
    });
  });

  it('accepts form bodies', async () => {
    const res = await t.management('POST', '/api/v2/resource-servers', {
      body: 'identifier=https%3A%2F%2Fform.example.com%2F&name=Form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((res.json() as { name: string }).name, 'Form');
  });

  it('generates a signing secret for HS256 APIs and returns it', async () => {
    const res = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'hs256-api', signing_alg: 'HS256' } });
    assert.equal(res.statusCode, 201, res.body);
    const secret = (res.json() as { signing_secret?: string }).signing_secret;
    assert.ok(secret && secret.length >= 32);
  });

  it('refuses a duplicate identifier with 409 and keeps the first', async () => {
    const first = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'dup-api', name: 'First' } });
    assert.equal(first.statusCode, 201);
    const second = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'dup-api', name: 'Second' } });
    assert.equal(second.statusCode, 409);
    assert.deepEqual(second.json(), {
      statusCode: 409,
      error: 'Conflict',
      message: 'A resource server with the same identifier already exists.',
      errorCode: 'conflict',
    });
    const kept = await t.management('GET', '/api/v2/resource-servers/dup-api');
    assert.equal((kept.json() as { name: string }).name, 'First');
  });

  it('refuses to change or delete the system API', async () => {
    const id = `https://${DOMAIN}/api/v2/`;
    const patch = await t.management('PATCH', `/api/v2/resource-servers/${encodeURIComponent(id)}`, { body: { name: 'x' } });
    assert.equal(patch.statusCode, 400);
    assert.equal((patch.json() as { message: string }).message, 'System resource servers cannot be patched.');
    const del = await t.management('DELETE', `/api/v2/resource-servers/${encodeURIComponent(id)}`);
    assert.equal(del.statusCode, 400);
    assert.equal((del.json() as { message: string }).message, 'System resource servers cannot be deleted.');
  });

  const invalid: [string, unknown, string][] = [
    ['an unknown property', { identifier: 'x1', foo: 1 }, "Payload validation error: 'Additional properties not allowed: foo'."],
    ['a missing identifier', { name: 'x' }, "Payload validation error: 'Missing required property: identifier'."],
    [
      'a name with <',
      { identifier: 'x2', name: 'a<b' },
      "Payload validation error: 'String does not match pattern ^[^<>]+$: a<b' on property name (Friendly name for this resource server. Can not contain `<` or `>` characters.).",
    ],
    [
      'a token_lifetime above 2592000',
      { identifier: 'x3', token_lifetime: 2592001 },
      "Payload validation error: 'Value 2592001 is greater than maximum 2592000' on property token_lifetime (Expiration value (in seconds) for access tokens issued for this API from the token endpoint.).",
    ],
    [
      'a token_lifetime of the wrong type',
      { identifier: 'x4', token_lifetime: '60' },
      "Payload validation error: 'Expected type integer but found type string' on property token_lifetime (Expiration value (in seconds) for access tokens issued for this API from the token endpoint.).",
    ],
    [
      'an unknown signing_alg',
      { identifier: 'x5', signing_alg: 'ES256' },
      "Payload validation error: 'No enum match for: ES256' on property signing_alg (Algorithm used to sign JWTs: RS256 (default, the tenant key) or HS256 (the signing secret).).",
    ],
    [
      'a scope without value',
      { identifier: 'x6', scopes: [{ description: 'd' }] },
      "Payload validation error: 'Missing required property: value' on property scopes[0].",
    ],
    ['the reserved userinfo identifier', { identifier: `https://${DOMAIN}/userinfo` }, 'The selected identifier is reserved.'],
  ];
  for (const [name, body, message] of invalid) {
    it(`refuses ${name} with 400 invalid_body`, async () => {
      const res = await t.management('POST', '/api/v2/resource-servers', { body });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_body' });
    });
  }

  it('refuses malformed JSON and other media types', async () => {
    const bad = await t.management('POST', '/api/v2/resource-servers', { body: '{"identifier":' });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { statusCode: 400, error: 'Bad Request', message: 'Invalid request payload JSON format' });
    const xml = await t.management('POST', '/api/v2/resource-servers', { body: '<x/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(xml.statusCode, 415);
    assert.deepEqual(xml.json(), { statusCode: 415, error: 'Unsupported Media Type', message: 'Unsupported Media Type' });
  });

  it('refuses bad query strings with 400 invalid_query_string', async () => {
    const res = await t.management('GET', '/api/v2/resource-servers?per_page=101');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Query validation error: 'Value 101 is greater than maximum 100' on property per_page (Number of results per page. Defaults to 50.).",
      errorCode: 'invalid_query_string',
    });
  });

  it('deleting an API deletes its client grants', async () => {
    const rs = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'doomed', scopes: [{ value: 's' }] } });
    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: t.admin.client_id, audience: 'doomed', scope: ['s'] } });
    assert.equal(grant.statusCode, 201, grant.body);
    await t.management('DELETE', `/api/v2/resource-servers/${(rs.json() as { id: string }).id}`);
    const after = await t.management('GET', `/api/v2/client-grants/${(grant.json() as { id: string }).id}`);
    assert.equal(after.statusCode, 404);
  });
});
