/**
 * Brute-force blocks with REDIS_URL: counted and indexed in the real Redis, so
 * every process on the same Redis and database refuses a blocked pair, lists
 * it, and sees it lifted, and a restarted process still knows it. Without
 * Redis a block lives in the process that made it.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { MAX_FAILURES } from '../../src/domain/brute-force.js';
import { createContext, createLogger } from '../../src/app/context.js';
import { buildApp } from '../../src/app/http.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';
import type { RuntimeContext } from '../../src/app/context.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const IP = '10.9.0.1';

/** Another Gatehouse process on the same configuration (database, data directory, Redis). */
interface Process {
  app: FastifyInstance;
  ctx: RuntimeContext;
  close(): Promise<void>;
}

async function startProcess(t: TestApp): Promise<Process> {
  const ctx = await createContext(t.config, createLogger(t.config));
  await redisReady(ctx);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}

/** Commands sent before the connection is up go to the in-memory fallback (no offline queue). */
async function redisReady(ctx: RuntimeContext): Promise<void> {
  if (ctx.redis && ctx.redis.status !== 'ready') await once(ctx.redis, 'ready');
}

describe('brute-force blocks and processes', async () => {
  const available = await redisAvailable();
  const skip = available ? false : `Redis is not reachable at ${REDIS_URL}`;

  async function setUp(env: Record<string, string>): Promise<{ t: TestApp; client: TestClient }> {
    const t = await createTestApp({ env });
    await redisReady(t.ctx);
    const client = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    const connection = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(connection.statusCode, 201, connection.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'bob@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    return { t, client };
  }

  const login = (app: FastifyInstance, client: TestClient, password: string) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: IP,
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username: 'bob@example.com', password, realm: REALM },
    });

  const management = (app: FastifyInstance, token: string, method: 'GET' | 'DELETE', url: string) =>
    app.inject({ method, url, headers: { host: DOMAIN, authorization: `Bearer ${token}` } });

  it('a block made in one process is refused, listed and lifted in another, and survives a restart', { skip }, async () => {
    const { t, client } = await setUp({ REDIS_URL });
    let b: Process | undefined;
    let restarted: Process | undefined;
    try {
      b = await startProcess(t);
      // Failures spread over both processes add up in the one Redis counter.
      for (let i = 0; i < MAX_FAILURES; i++) {
        const res = await login(i % 2 === 0 ? t.app : b.app, client, 'wrong');
        assert.equal(res.statusCode, 403, `failure ${i + 1}`);
      }
      assert.equal((await login(t.app, client, PASSWORD)).statusCode, 429);
      assert.equal((await login(b.app, client, PASSWORD)).statusCode, 429);

      const token = await t.managementToken();
      const listed = await management(b.app, token, 'GET', '/api/v2/user-blocks?identifier=bob%40example.com');
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(listed.json(), { blocked_for: [{ identifier: 'bob@example.com', ip: IP, connection: REALM }] });

      // A restarted process (new context, empty memory) still knows the block.
      await b.close();
      b = undefined;
      restarted = await startProcess(t);
      assert.equal((await login(restarted.app, client, PASSWORD)).statusCode, 429);
      assert.deepEqual((await management(restarted.app, token, 'GET', '/api/v2/user-blocks?identifier=bob%40example.com')).json(), {
        blocked_for: [{ identifier: 'bob@example.com', ip: IP, connection: REALM }],
      });

      // Lifted through the restarted process, the block is gone for the first one too.
      assert.equal((await management(restarted.app, token, 'DELETE', '/api/v2/user-blocks?identifier=bob%40example.com')).statusCode, 204);
      assert.deepEqual((await t.management('GET', '/api/v2/user-blocks?identifier=bob%40example.com')).json(), { blocked_for: [] });
      assert.equal((await login(t.app, client, PASSWORD)).statusCode, 200);
    } finally {
      await b?.close();
      await restarted?.close();
      await t.close();
    }
  });

  it('without Redis a block stays in the process that made it', async () => {
    const { t, client } = await setUp({});
    let b: Process | undefined;
    try {
      assert.equal(t.ctx.redis, undefined);
      for (let i = 0; i < MAX_FAILURES; i++) assert.equal((await login(t.app, client, 'wrong')).statusCode, 403);
      assert.equal((await login(t.app, client, PASSWORD)).statusCode, 429);
      b = await startProcess(t);
      assert.equal((await login(b.app, client, PASSWORD)).statusCode, 200);
    } finally {
      await b?.close();
      await t.close();
    }
  });
});
