/** Rate limits per tenant and surface, in process and shared through Redis. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../../helpers/app.js';
import { REDIS_URL, redisAvailable } from '../../helpers/redis.js';

describe('rate limits', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    // Generous management bucket while the token is fetched; the tenant override below narrows it.
    t = await createTestApp({ env: { GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '3/3' } });
    token = await t.managementToken();
  });
  after(() => t.close());

  const jwks = (host = DOMAIN) => t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host } });

  /**
   * A tenant of its own, nothing drawn from its buckets yet, with an
   * Authentication API bucket of 3 refilling every 30 s: no window boundary
   * falls inside the case, so nothing waits for one.
   */
  async function freshTenant(domain: string) {
    const { tenant } = await t.ctx.tenants.create({ domain });
    await t.ctx.tenants.updateSettings(tenant, { ...tenant.settings, rate_limits: { authentication: { burst: 3, perSecond: 0.1 } } });
  }

  it('sends X-RateLimit-* on every response and 429s the Authentication API past the burst', async () => {
    await freshTenant('burst.test');
    const start = Math.floor(Date.now() / 1000);
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await jwks('burst.test'));
    assert.deepEqual(responses.map((r) => r.statusCode), [200, 200, 200, 429]);
    assert.deepEqual(responses.map((r) => r.headers['x-ratelimit-remaining']), ['2', '1', '0', '0']);
    for (const r of responses) {
      assert.equal(r.headers['x-ratelimit-limit'], '3');
      const reset = Number(r.headers['x-ratelimit-reset']);
      assert.ok(reset >= start && reset <= start + 31, `reset ${reset} is Unix seconds near ${start} + 30`);
    }
    const limited = responses[3]!;
    assert.deepEqual(limited.json(), {
      error: 'too_many_requests',
      error_description: 'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.',
    });
    assert.ok(Number(limited.headers['retry-after']) >= 1);
  });

  it('429s the Management API with the service’s body, per tenant override', async () => {
    await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, rate_limits: { management: { burst: 2, perSecond: 2 } } });
    const call = () =>
      t.app.inject({ method: 'GET', url: '/api/v2/resource-servers', headers: { host: DOMAIN, authorization: `Bearer ${token}` } });
    const statuses = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = await call();
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 429]);
    assert.equal(last!.headers['x-ratelimit-limit'], '2');
    assert.deepEqual(last!.json(), {
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Global limit has been reached',
      errorCode: 'too_many_requests',
    });
    // Unknown routes count and carry the headers too.
    const notFound = await t.app.inject({ method: 'GET', url: '/api/v2/nothing', headers: { host: DOMAIN } });
    assert.equal(notFound.statusCode, 429);
    assert.ok(notFound.headers['x-ratelimit-reset']);
  });

  it('keeps tenants’ buckets apart', async () => {
    await t.ctx.tenants.create({ domain: 'second.test' });
    const res = await jwks('second.test');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], '2');
  });
});

describe('processes sharing Redis', async () => {
  const available = await redisAvailable();
  const skip = available ? false : `Redis is not reachable at ${REDIS_URL}`;
  let a: TestApp;

  it('two processes draw from one bucket', { skip }, async () => {
    a = await createTestApp({ env: { REDIS_URL, GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '3/3' } });
    // A second app on the same database and Redis stands in for a second process.
    const { buildApp } = await import('../../../src/app/http.js');
    const { createContext, createLogger } = await import('../../../src/app/context.js');
    const ctxB = await createContext(a.config, createLogger(a.config));
    const b = await buildApp(ctxB);
    try {
      // A tenant of its own (nothing drawn yet), its bucket refilling every 30 s: no window boundary inside the case.
      const { tenant } = await a.ctx.tenants.create({ domain: 'shared.test' });
      await a.ctx.tenants.updateSettings(tenant, { ...tenant.settings, rate_limits: { authentication: { burst: 3, perSecond: 0.1 } } });
      const hit = (app: typeof b) => app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: 'shared.test' } });
      const statuses = [(await hit(a.app)).statusCode, (await hit(b)).statusCode, (await hit(a.app)).statusCode, (await hit(b)).statusCode];
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    } finally {
      await b.close();
      await ctxB.close();
      await a.close();
    }
  });
});

