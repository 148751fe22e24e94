/**
 * GET /metrics, served only when the operator asked for it:
 *
 * - GATEHOUSE_METRICS_TOKEN: on the public listener, to a request whose
 *   `Authorization` is `Bearer <that token>` (compared in constant time:
 *   SHA-256 digests of both, compared with timingSafeEqual, so neither the
 *   content nor the length leaks through timing); anything else is 401 with
 *   `WWW-Authenticate: Bearer` and no metrics. Without the token the route does
 *   not exist (404, as for any unknown path).
 * - GATEHOUSE_METRICS_PORT: on a plain-HTTP listener of its own bound to
 *   127.0.0.1 (reachable only from the machine, e.g. a Prometheus agent beside
 *   it), without a token; it answers nothing but GET /metrics.
 *
 * The text is the context's registry (src/platform/metrics.ts); in a cluster
 * worker, every worker's registry, gathered by the primary.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../domain/context.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries exactly the configured bearer token. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer ([\x21-\x7e]{1,1024})$/.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

/** The route on the public listener, when GATEHOUSE_METRICS_TOKEN is set. */
export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext): void {
  const token = ctx.config.metrics.token;
  if (token === undefined) return;
  const expected = digest(token);
  app.get('/metrics', { config: { tenantless: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!bearerMatches(request.headers.authorization, expected)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({ statusCode: 401, error: 'Unauthorized', message: 'A valid bearer token is required' });
    }
    return reply.type(ctx.metrics.contentType).send(await ctx.metrics.text());
  });
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/** The plain-HTTP listener on 127.0.0.1:GATEHOUSE_METRICS_PORT, when it is set. */
export async function startMetricsListener(ctx: AppContext): Promise<MetricsListener | undefined> {
  const port = ctx.config.metrics.port;
  if (port === undefined) return undefined;
  const server = http.createServer({ requestTimeout: 10_000 }, (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
      return;
    }
    ctx.metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': ctx.metrics.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        ctx.logger.error({ err }, 'collecting metrics failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => resolve());
  });
  ctx.logger.info({ url: `http://127.0.0.1:${port}/metrics` }, 'metrics listener');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
