/** Cached token-endpoint reads are dropped in every process when configuration changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp, DOMAIN, withSecondProcess } from '../helpers/app.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';

describe('cache invalidation through Redis', async () => {
  const available = await redisAvailable();
  const skip = available ? false : `Redis is not reachable at ${REDIS_URL}`;

  it('a grant deleted through one process stops tokens in another at once', { skip }, async () => {
    const a = await createTestApp({ env: { REDIS_URL } });
    await withSecondProcess(a, async (b) => {
      const token = () =>
        b.inject({
          method: 'POST',
          url: '/oauth/token',
          headers: { host: DOMAIN, 'content-type': 'application/json' },
          payload: { grant_type: 'client_credentials', client_id: a.admin.client_id, client_secret: a.admin.client_secret, audience: a.admin.audience },
        });
      assert.equal((await token()).statusCode, 200, 'process B caches the admin grant');
      const grants = (await a.management('GET', `/api/v2/client-grants?client_id=${a.admin.client_id}`)).json() as { id: string }[];
      assert.equal((await a.management('DELETE', `/api/v2/client-grants/${grants[0]!.id}`)).statusCode, 204);
      // Pub/sub delivery is asynchronous; it normally lands within milliseconds.
      let status = 0;
      for (let i = 0; i < 50 && status !== 403; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = (await token()).statusCode;
      }
      assert.equal(status, 403, 'process B refuses once the invalidation arrives, long before the cache TTL');
    });
  });
});
