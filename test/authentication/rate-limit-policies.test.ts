/**
 * Rate limit policies limit requests: a client past its policy's limit on
 * the Authentication API is answered as the service answers (429
 * `too_many_requests` with X-RateLimit-Limit/-Remaining/-Reset and
 * Retry-After) under `block`, let on under `log`, sent to the policy's URI
 * under `redirect` (a browser navigation); `allow` exempts a client from the
 * `default` policy; `third_party_clients` reaches only third-party clients; a
 * change of policy applies at once; and with REDIS_URL the count is shared
 * by every process. The operations themselves: test/management/rate-limit-policies.test.ts.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { createContext, createLogger } from '../../src/app/context.js';
import { buildApp } from '../../src/app/http.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';

const API = 'https://api.example.com/';
const LIMITED_BODY = {
  error: 'too_many_requests',
  error_description: 'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.',
};

/** A test app with an API, and clients granted it. */
async function setUp(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  if (t.ctx.redis && t.ctx.redis.status !== 'ready') await once(t.ctx.redis, 'ready');
  // One admin token for the whole file: a `default` policy limits the admin client's token requests too.
  const admin = await t.managementToken();
  const call = (method: string, url: string, body?: unknown) => t.management(method, url, { token: admin, ...(body !== undefined && { body }) });
  assert.equal((await call('POST', '/api/v2/resource-servers', { identifier: API, name: 'Example API' })).statusCode, 201);
  const client = async (fields: Parameters<typeof insertClient>[1] = {}) => {
    const c = await insertClient(t, fields);
    const grant = await call('POST', '/api/v2/client-grants', { client_id: c.client_id, audience: API, scope: [] });
    assert.equal(grant.statusCode, 201, grant.body);
    return c;
  };
  const policy = async (consumer_selector: string, configuration: Record<string, unknown>) => {
    const res = await call('POST', '/api/v2/rate-limit-policies', { resource: 'oauth_authentication_api', consumer: 'client', consumer_selector, configuration });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { id: string }).id;
  };
  const clearPolicies = async () => {
    const { rate_limit_policies: all } = (await call('GET', '/api/v2/rate-limit-policies')).json() as { rate_limit_policies: { id: string }[] };
    for (const { id } of all) assert.equal((await call('DELETE', `/api/v2/rate-limit-policies/${id}`)).statusCode, 204);
  };
  return { t, call, client, policy, clearPolicies };
}

/**
 * Runs `attempt` (which counts requests against a limit per second) again,
 * up to three times, only when a failed attempt took long enough for a
 * window to end inside it (a loaded machine); a failure inside one window
 * is a real one.
 */
async function withinOneWindow(attempt: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    const started = Date.now();
    try {
      return await attempt();
    } catch (error) {
      if (i === 2 || Date.now() - started < 900) throw error;
    }
  }
}

const token = (t: TestApp, c: TestClient, app = t.app) =>
  tokenRequest(app, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret, audience: API });

describe('rate limit policies on the Authentication API', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  before(async () => {
    s = await setUp();
  });
  after(() => s.t.close());

  it('block: past the limit, 429 in the service’s shape with the policy’s X-RateLimit headers; other clients unaffected', async () => {
    const other = await s.client();
    await withinOneWindow(async () => {
      const limited = await s.client();
      await s.policy(`client_id:${limited.client_id}`, { action: 'block', limit: 2 });
      const start = Math.floor(Date.now() / 1000);
      const responses = [];
      for (let i = 0; i < 3; i++) responses.push(await token(s.t, limited));
      assert.deepEqual(responses.map((r) => r.statusCode), [200, 200, 429], responses.map((r) => r.body).join('\n'));
      assert.deepEqual(responses.map((r) => r.headers['x-ratelimit-limit']), ['2', '2', '2']);
      assert.deepEqual(responses.map((r) => r.headers['x-ratelimit-remaining']), ['1', '0', '0']);
      const refused = responses[2]!;
      assert.deepEqual(refused.json(), LIMITED_BODY);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      const reset = Number(refused.headers['x-ratelimit-reset']);
      assert.ok(reset >= start && reset <= start + 3, `reset ${reset} near ${start}`);
      // The client as /authorize names it (query) draws from the same bucket.
      const authorize = await s.t.app.inject({ method: 'GET', url: `/authorize?client_id=${limited.client_id}&response_type=code`, headers: { host: DOMAIN } });
      assert.equal(authorize.statusCode, 429);
    });

    const unaffected = await token(s.t, other);
    assert.equal(unaffected.statusCode, 200, unaffected.body);
    assert.equal(unaffected.headers['x-ratelimit-limit'], '100000', 'the tenant bucket’s headers');
    await s.clearPolicies();
  });

  it('a change of policy applies at once', async () => {
    const c = await s.client();
    const id = await s.policy(`client_id:${c.client_id}`, { action: 'block', limit: 0 });
    assert.equal((await token(s.t, c)).statusCode, 429);
    assert.equal((await s.call('PATCH', `/api/v2/rate-limit-policies/${id}`, { configuration: { action: 'allow' } })).statusCode, 200);
    assert.equal((await token(s.t, c)).statusCode, 200);
    assert.equal((await s.call('DELETE', `/api/v2/rate-limit-policies/${id}`)).statusCode, 204);
    assert.equal((await token(s.t, c)).statusCode, 200);
  });

  it('third_party_clients reaches third-party clients only; allow exempts a client from default; the most specific policy wins', async () => {
    const thirdParty = await s.client({ is_first_party: 0 });
    const firstParty = await s.client();
    const exempt = await s.client({ is_first_party: 0 });
    await s.policy('third_party_clients', { action: 'block', limit: 0 });
    assert.equal((await token(s.t, thirdParty)).statusCode, 429);
    assert.equal((await token(s.t, firstParty)).statusCode, 200);

    await s.policy('default', { action: 'block', limit: 0 });
    await s.policy(`client_id:${exempt.client_id}`, { action: 'allow' });
    assert.equal((await token(s.t, firstParty)).statusCode, 429);
    for (let i = 0; i < 3; i++) assert.equal((await token(s.t, exempt)).statusCode, 200);
    await s.clearPolicies();
  });

  it('log lets requests past the limit on', async () => {
    const c = await s.client();
    await s.policy(`client_id:${c.client_id}`, { action: 'log', limit: 1 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await token(s.t, c)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200]);
    await s.clearPolicies();
  });

  it('redirect sends a browser navigation past the limit to the policy’s URI, and refuses a token request with 429', async () => {
    await withinOneWindow(async () => {
      const c = await s.client();
      await s.policy(`client_id:${c.client_id}`, { action: 'redirect', limit: 1, redirect_uri: 'https://status.example.com/slow-down' });
      const url = `/authorize?client_id=${c.client_id}&response_type=code&redirect_uri=${encodeURIComponent('https://app.example.com/cb')}`;
      const first = await s.t.app.inject({ method: 'GET', url, headers: { host: DOMAIN } });
      assert.notEqual(first.headers.location, 'https://status.example.com/slow-down');
      const second = await s.t.app.inject({ method: 'GET', url, headers: { host: DOMAIN } });
      assert.equal(second.statusCode, 302);
      assert.equal(second.headers.location, 'https://status.example.com/slow-down');
      const tokenRes = await token(s.t, c);
      assert.equal(tokenRes.statusCode, 429);
      assert.deepEqual(tokenRes.json(), LIMITED_BODY);
    });
    await s.clearPolicies();
  });

  it('a request naming no client, or a client that does not exist, is left to the tenant’s bucket', async () => {
    await s.policy('default', { action: 'block', limit: 0 });
    const jwks = await s.t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } });
    assert.equal(jwks.statusCode, 200);
    const unknown = await tokenRequest(s.t.app, { grant_type: 'client_credentials', client_id: 'no-such-client', client_secret: 'x', audience: API });
    assert.notEqual(unknown.statusCode, 429);
    await s.clearPolicies();
  });
});

describe('rate limit policies across processes (REDIS_URL)', async () => {
  const available = await redisAvailable();
  it('a client’s count is shared by every process on the same Redis', { skip: available ? false : `Redis is not reachable at ${REDIS_URL}` }, async () => {
    const s = await setUp({ REDIS_URL });
    // The other process is up (and on Redis) before the first request: the window is one second.
    const ctx = await createContext(s.t.config, createLogger(s.t.config));
    try {
      if (ctx.redis && ctx.redis.status !== 'ready') await once(ctx.redis, 'ready');
      const other = await buildApp(ctx);
      await other.ready();
      try {
        await withinOneWindow(async () => {
          const c = await s.client();
          await s.policy(`client_id:${c.client_id}`, { action: 'block', limit: 1 });
          assert.equal((await token(s.t, c)).statusCode, 200);
          const res = await token(s.t, c, other);
          assert.equal(res.statusCode, 429, res.body);
          assert.deepEqual(res.json(), LIMITED_BODY);
        });
      } finally {
        await other.close();
      }
    } finally {
      await ctx.close();
      await s.t.close();
    }
  });
});
