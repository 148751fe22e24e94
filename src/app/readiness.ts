/**
 * GET /health/ready: whether this process can serve, for a load balancer or
 * an orchestrator's readiness probe. The database must answer (and Redis,
 * when REDIS_URL is set: rate-limit buckets, blocks and cache invalidation
 * are shared through it); 200 `{status: "ok", checks}` or 503
 * `{status: "unavailable", checks}` naming the one that failed. The details of
 * a failure go to the log only. GET /health (src/app/http.ts) stays the
 * liveness check.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../domain/context.js';

type CheckResult = 'ok' | 'unavailable' | 'not configured';

async function check(ctx: AppContext, name: string, run: () => Promise<void>): Promise<CheckResult> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    ctx.logger.error({ err, check: name }, 'readiness check failed');
    return 'unavailable';
  }
}

export function registerReadinessRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get('/health/ready', { config: { tenantless: true } }, async (_request, reply) => {
    const [database, redis] = await Promise.all([
      check(ctx, 'database', () => ctx.checkDatabase()),
      ctx.config.redisUrl ? check(ctx, 'redis', () => ctx.checkRedis()) : Promise.resolve<CheckResult>('not configured'),
    ]);
    const ready = database === 'ok' && redis !== 'unavailable';
    return reply
      .code(ready ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: ready ? 'ok' : 'unavailable', checks: { database, redis } });
  });
}
