/**
 * JSON bodies on both surfaces: nesting deeper than 32 levels is refused
 * before the body is parsed (a fuzzer's 5,000-deep bodies answered 500
 * "Maximum call stack size exceeded", 3,000-deep ones were stored), and
 * free-form objects are bounded in size. Nothing is stored either way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../../helpers/app.js';

/** A JSON object text nested `depth` levels deep: {"a":{"a":…1…}}. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

const TOO_DEEP = {
  statusCode: 400,
  error: 'Bad Request',
  message: "Payload validation error: 'JSON nesting depth exceeds the maximum of 32'.",
  errorCode: 'invalid_body',
};

describe('JSON bodies: nesting depth and free-form object size', () => {
  let t: TestApp;
  let token: string;
  let resourceServerId: string;

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
    const rs = await t.management('POST', '/api/v2/resource-servers', { token, body: { identifier: 'https://depth.example.com/', name: 'depth' } });
    assert.equal(rs.statusCode, 201, rs.body);
    resourceServerId = (rs.json() as { id: string }).id;
  });
  after(() => t.close());

  /** The `total` of a list with include_totals. */
  async function total(path: string): Promise<number> {
    const res = await t.management('GET', `/api/v2/${path}?include_totals=true`, { token });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { total: number }).total;
  }

  /** Every body the fuzzer found, with `member` nested so that the whole body is `depth` levels deep. */
  const deepRequests = (depth: number) =>
    [
      { method: 'POST', url: '/api/v2/clients', list: 'clients', body: `{"name":"deep","oidc_logout":${nested(depth - 1)}}` },
      { method: 'POST', url: '/api/v2/connections', list: 'connections', body: `{"name":"deep-${depth}","strategy":"auth0","options":${nested(depth - 1)}}` },
      { method: 'POST', url: '/api/v2/resource-servers', list: 'resource-servers', body: `{"identifier":"https://deep-${depth}.example.com/","name":"deep","token_encryption":${nested(depth - 1)}}` },
      {
        method: 'POST',
        url: '/api/v2/users',
        list: 'users',
        body: `{"connection":"Username-Password-Authentication","email":"deep-${depth}@example.com","password":"Deep-passw0rd!","user_metadata":${nested(depth - 1)}}`,
      },
    ] as const;

  for (const depth of [5000, 3000, 33]) {
    it(`Management API: a body ${depth} levels deep is 400 invalid_body on every create, and nothing is stored`, async () => {
      for (const request of deepRequests(depth)) {
        const before = await total(request.list);
        const res = await t.management(request.method, request.url, { token, body: request.body });
        assert.equal(res.statusCode, 400, `${request.method} ${request.url}: ${res.body}`);
        assert.deepEqual(res.json(), TOO_DEEP, `${request.method} ${request.url}`);
        assert.equal(await total(request.list), before, `${request.method} ${request.url} stored nothing`);
      }
    });
  }

  it('Management API: PATCH /resource-servers/{id} with a body 5,000 levels deep is 400 and changes nothing', async () => {
    const url = `/api/v2/resource-servers/${resourceServerId}`;
    const before = (await t.management('GET', url, { token })).json();
    const res = await t.management('PATCH', url, { token, body: `{"token_encryption":${nested(4999)}}` });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), TOO_DEEP);
    assert.deepEqual((await t.management('GET', url, { token })).json(), before);
  });

  it('Management API: 32 levels is the limit and is accepted', async () => {
    const res = await t.management('PATCH', `/api/v2/resource-servers/${resourceServerId}`, { token, body: `{"token_encryption":${nested(31)}}` });
    assert.equal(res.statusCode, 200, res.body);
    const res2 = await t.management('POST', '/api/v2/clients', { token, body: `{"name":"deep enough","oidc_logout":${nested(31)}}` });
    assert.equal(res2.statusCode, 201, res2.body);
  });

  it('Management API: brackets inside strings do not count as nesting', async () => {
    const res = await t.management('POST', '/api/v2/clients', { token, body: JSON.stringify({ name: 'brackets', description: '{['.repeat(60) }) });
    assert.equal(res.statusCode, 201, res.body);
  });

  it('Authentication API: a body 5,000 levels deep is 400 invalid_request', async () => {
    for (const url of ['/oauth/token', '/oauth/revoke', '/dbconnections/signup']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { host: DOMAIN, 'content-type': 'application/json' },
        payload: `{"client_id":"x","grant_type":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.deepEqual(res.json(), { error: 'invalid_request', error_description: 'The JSON body nests deeper than 32 levels' }, url);
    }
  });

  it('free-form objects: 64 KiB serialised at most where the service states no limit; nothing stored', async () => {
    const big = { blob: 'x'.repeat(65_536) };
    const size = Buffer.byteLength(JSON.stringify(big));
    const clients = await total('clients');
    const client = await t.management('POST', '/api/v2/clients', { token, body: { name: 'big', mobile: big } });
    assert.equal(client.statusCode, 400, client.body);
    assert.deepEqual(client.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: `Payload validation error: 'Object is too large (${size} bytes), maximum 65536' on property mobile (Additional configuration for native mobile apps.).`,
      errorCode: 'invalid_body',
    });
    assert.equal(await total('clients'), clients);

    const addon = await t.management('POST', '/api/v2/clients', { token, body: { name: 'big', addons: { samlp: big } } });
    assert.equal(addon.statusCode, 400, addon.body);
    assert.match((addon.json() as { message: string }).message, /^Payload validation error: 'Object is too large \(\d+ bytes\), maximum 65536' on property addons /);
    assert.equal(await total('clients'), clients);

    const url = `/api/v2/resource-servers/${resourceServerId}`;
    const before = (await t.management('GET', url, { token })).json();
    const rs = await t.management('PATCH', url, { token, body: { token_encryption: big } });
    assert.equal(rs.statusCode, 400, rs.body);
    assert.deepEqual(rs.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: `Payload validation error: 'Object is too large (${size} bytes), maximum 65536' on property token_encryption (Token encryption configuration.).`,
      errorCode: 'invalid_body',
    });
    assert.deepEqual((await t.management('GET', url, { token })).json(), before);

    // Just under the bound is accepted.
    const fits = await t.management('POST', '/api/v2/clients', { token, body: { name: 'fits', mobile: { blob: 'x'.repeat(65_536 - 11) } } });
    assert.equal(fits.statusCode, 201, fits.body);
  });

  it('connection options: 256 KiB serialised at most; nothing stored', async () => {
    const options = { blob: 'x'.repeat(262_144) };
    const size = Buffer.byteLength(JSON.stringify(options));
    const connections = await total('connections');
    const res = await t.management('POST', '/api/v2/connections', { token, body: { name: 'big-options', strategy: 'auth0', options } });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: `Payload validation error: 'Object is too large (${size} bytes), maximum 262144' on property options (The connection's options (depend on the connection strategy)).`,
      errorCode: 'invalid_body',
    });
    assert.equal(await total('connections'), connections);
  });
});
