/** Redis for tests: required under CI, skipped with a reason elsewhere when unreachable. */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function redisAvailable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch (error) {
    if (process.env.CI) throw new Error(`Redis is required under CI but unreachable at ${REDIS_URL}: ${String(error)}`);
    return false;
  } finally {
    redis.disconnect();
  }
}
