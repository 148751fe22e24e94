/**
 * GET /metrics (Prometheus text, src/platform/metrics.ts and src/app/metrics.ts)
 * and GET /health/ready (src/app/readiness.ts) on the real app and database:
 * served only when configured, the bearer token required, the counters moved
 * by real token requests, failed logins, rate-limit refusals and brute-force
 * blocks; the plain-HTTP listener on 127.0.0.1; readiness 503 when the
 * database or Redis does not answer.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createTestApp, DOMAIN, tempDir, tokenRequest, type TestApp } from '../helpers/app.js';
import { createContext, ensureDefaultTenant, REDACT_PATHS } from '../../src/app/context.js';
import { buildApp } from '../../src/app/http.js';
import { loadConfig } from '../../src/platform/config.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { freePort } from '../helpers/server-process.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';
import { startMetricsListener } from '../../src/app/metrics.js';
import { MAX_FAILURES } from '../../src/domain/brute-force.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'correct horse battery staple';
const redisUp = await redisAvailable();

function scrape(t: TestApp, authorization?: string) {
  return t.app.inject({ method: 'GET', url: '/metrics', headers: { host: DOMAIN, ...(authorization !== undefined && { authorization }) } });
}

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('GET /metrics with GATEHOUSE_METRICS_TOKEN', () => {
  let t: TestApp;
  let app: TestClient;
  const metrics = async () => {
    const res = await scrape(t, `Bearer ${METRICS_TOKEN}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };

  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN } });
    app = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    const connection = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(connection.statusCode, 201, connection.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
  });
  after(() => t.close());

  test('no token, a wrong token, another scheme: 401 and no metrics', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${METRICS_TOKEN}`, `Bearer ${METRICS_TOKEN}x`, `Bearer ${METRICS_TOKEN.slice(0, -1)}`, 'Bearer ']) {
      const res = await scrape(t, authorization);
      assert.equal(res.statusCode, 401, String(authorization));
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
      assert.doesNotMatch(res.body, /gatehouse_|# HELP/);
    }
  });

  test('Prometheus text; a token request and a failed login move their counters; requests counted by route pattern', async () => {
    const before = await metrics();
    assert.match(String((await scrape(t, `Bearer ${METRICS_TOKEN}`)).headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const tokens = 'gatehouse_tokens_issued_total{grant_type="client_credentials"}';
    const failures = `gatehouse_logins_total{connection="${REALM}",result="failure"}`;
    const successes = `gatehouse_logins_total{connection="${REALM}",result="success"}`;

    const token = await t.managementToken();
    const wrong = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'alice@example.com', password: 'not it', realm: REALM });
    assert.equal(wrong.statusCode, 403, wrong.body);
    const right = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'alice@example.com', password: PASSWORD, realm: REALM });
    assert.equal(right.statusCode, 200, right.body);
    await t.management('GET', '/api/v2/clients/no-such-client-id-1234', { token });
    await t.app.inject({ method: 'GET', url: '/no/such/path-5678', headers: { host: DOMAIN } });

    const afterwards = await metrics();
    assert.equal(sample(afterwards, tokens), sample(before, tokens) + 1);
    assert.equal(sample(afterwards, failures), sample(before, failures) + 1);
    assert.equal(sample(afterwards, successes), sample(before, successes) + 1);
    assert.equal(sample(afterwards, `gatehouse_tokens_issued_total{grant_type="${PASSWORD_REALM}"}`), 1);
    assert.ok(sample(afterwards, 'gatehouse_http_requests_total{method="POST",route="/oauth/token",status="403"}') >= 1);
    assert.ok(sample(afterwards, 'gatehouse_http_requests_total{method="GET",route="/api/v2/clients/:id",status="404"}') >= 1);
    assert.ok(sample(afterwards, 'gatehouse_http_request_duration_seconds_count{method="POST",route="/oauth/token",status="200"}') >= 2);
    assert.ok(sample(afterwards, 'gatehouse_http_requests_total{method="GET",route="unmatched",status="404"}') >= 1);
    assert.doesNotMatch(afterwards, /no-such-client-id-1234|path-5678/, 'raw URLs never become labels');
    // Pools and the runtime, read at scrape time.
    assert.match(afterwards, /^gatehouse_hashing_queue_size \d+$/m);
    assert.match(afterwards, /^gatehouse_hashing_utilization_ratio [\d.e-]+$/m);
    assert.match(afterwards, /^nodejs_eventloop_lag_seconds [\d.e-]+$/m);
  });

  test('brute-force protection: the login that uses up the failures counts one block', async () => {
    const blocks = 'gatehouse_brute_force_blocks_total';
    const before = sample(await metrics(), blocks);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'mallory@example.com', password: `guess-${i}`, realm: REALM });
      assert.equal(res.statusCode, 403, res.body);
    }
    const refused = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'mallory@example.com', password: 'again', realm: REALM });
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(sample(await metrics(), blocks), before + 1);
  });

  test('GET /health/ready: 200 with the database answering, Redis not configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'ok', checks: { database: 'ok', redis: 'not configured' } });
  });
});

describe('GET /metrics unconfigured', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('is not served (404 as any unknown path), with or without a token; no listener is started', async () => {
    assert.equal((await scrape(t)).statusCode, 404);
    const res = await scrape(t, `Bearer ${METRICS_TOKEN}`);
    assert.equal(res.statusCode, 404);
    assert.doesNotMatch(res.body, /gatehouse_/);
    assert.equal(await startMetricsListener(t.ctx), undefined);
  });

  test('records nothing: no registry, and requests and tokens leave the metrics empty', async () => {
    assert.equal(t.ctx.metrics.registry, undefined);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health', headers: { host: DOMAIN } })).statusCode, 200);
    t.ctx.metrics.tokenIssued('client_credentials');
    t.ctx.metrics.login('Username-Password-Authentication', false);
    t.ctx.metrics.rateLimited('authentication');
    t.ctx.metrics.bruteForceBlock();
    assert.equal(await t.ctx.metrics.text(), '');
  });
});

describe('rate-limit refusals', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN, GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '2/0.01' } });
  });
  after(() => t.close());

  test('each 429 of a bucket is counted under its name', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).statusCode);
    assert.deepEqual(statuses, [200, 200, 429, 429]);
    const text = (await scrape(t, `Bearer ${METRICS_TOKEN}`)).body;
    assert.equal(sample(text, 'gatehouse_rate_limit_rejections_total{bucket="authentication"}'), 2);
  });
});

describe('GATEHOUSE_METRICS_PORT', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    port = await freePort();
    t = await createTestApp({ env: { GATEHOUSE_METRICS_PORT: String(port) } });
  });
  after(() => t.close());

  test('a plain-HTTP listener on 127.0.0.1 serves /metrics without a token, nothing else; the public port does not', async () => {
    const listener = await startMetricsListener(t.ctx);
    assert.ok(listener);
    try {
      await t.managementToken();
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /gatehouse_tokens_issued_total\{grant_type="client_credentials"\} 1/);
      assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status, 404);
      assert.equal((await scrape(t)).statusCode, 404, 'no /metrics on the public port without a token configured');
    } finally {
      await listener.close();
    }
  });
});

describe('GET /health/ready when a dependency is down', () => {
  test('503 naming the database when its handle is closed', async () => {
    const t = await createTestApp();
    try {
      await t.ctx.database.close();
      const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(res.json(), { status: 'unavailable', checks: { database: 'unavailable', redis: 'not configured' } });
    } finally {
      await t.app.close();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  test('503 naming Redis when REDIS_URL points at nothing; 200 with the real Redis', { skip: redisUp ? false : 'Redis is unreachable' }, async () => {
    const down = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(res.json(), { status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } });
    } finally {
      await down.close();
    }
    const up = await createTestApp({ env: { REDIS_URL } });
    try {
      const redis = up.ctx.redis!;
      if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
      const res = await up.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    } finally {
      await up.close();
    }
  });
});

describe('the request log line of a failed request', () => {
  test('carries the error code and the tenant, never the secret or the message', async () => {
    const dataDir = tempDir();
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DOMAIN: DOMAIN, LOG_LEVEL: 'info', GATEHOUSE_DEFAULT_CONNECTION: '0' });
    const ctx = await createContext(config, pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink));
    try {
      const { tenant } = await ensureDefaultTenant(ctx);
      const app = await buildApp(ctx);
      const secret = 'a-wrong-secret-that-must-not-be-logged';
      const oauth = await tokenRequest(app, { grant_type: 'client_credentials', client_id: tenant.settings.admin_client_id, client_secret: secret, audience: `https://${DOMAIN}/api/v2/` });
      assert.equal(oauth.statusCode, 401, oauth.body);
      const management = await app.inject({ method: 'GET', url: '/api/v2/clients', headers: { host: DOMAIN, authorization: 'Bearer not-a-jwt' } });
      assert.equal(management.statusCode, 400, management.body);
      await app.close();
      const requests = lines.filter((l) => l.msg === 'request');
      const token = requests.find((l) => l.path === '/oauth/token');
      assert.equal(token?.status, 401);
      assert.equal(token?.error, (oauth.json() as { error: string }).error);
      assert.equal(token?.tenant, tenant.name);
      const listed = requests.find((l) => l.path === '/api/v2/clients');
      assert.equal(listed?.error, (management.json() as { errorCode: string }).errorCode);
      assert.equal(listed?.error, 'Bearer');
      assert.equal(listed?.tenant, tenant.name);
      assert.doesNotMatch(JSON.stringify(lines), new RegExp(`${secret}|not-a-jwt`));
    } finally {
      await ctx.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
