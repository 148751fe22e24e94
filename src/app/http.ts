/**
 * The Fastify application: one app, two surfaces (Management API under
 * /api/v2, Authentication API at the root), tenants resolved from the Host
 * header, rate limits per tenant and surface, errors serialised in one place.
 */
import type { ServerOptions } from 'node:http';
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { defaultRegistries, type AuthenticationRegistries } from '../authentication/registries.js';
import { authenticationRoutes } from '../authentication/routes.js';
import { wellKnownListener } from '../authentication/well-known/listener.js';
import { openApiRoute, registerOpenApi } from '../management/openapi.js';
import { managementPlugin } from '../management/plugin.js';
import type { RateLimitClass, Tenant } from '../domain/tenants/tenant.js';
import { clientErrorHandler, limitConnectionsPerAddress, timeoutOptions } from '../platform/http/connections.js';
import { errorHandler, surfaceOf } from '../platform/http/error-handler.js';
import { managementErrors, oauthErrors } from '../platform/http/errors.js';
import { registerJsonBodyParser } from '../platform/http/json-body.js';
import { refuseNulCharacters } from '../platform/http/nul-characters.js';
import { lazySerializerFactory, validatorCompiler } from '../platform/http/validation.js';
import type { AppContext } from '../domain/context.js';
import { failureCode } from '../platform/http/error-handler.js';
import { registerMetricsRoute } from './metrics.js';
import { registerReadinessRoute } from './readiness.js';
import { countRequests } from './request-metrics.js';
import { annotateRequestSpans } from './request-spans.js';
import type { Tracing } from '../platform/tracing/tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant named by the Host header; set for every request but /health. */
    tenant: Tenant;
  }
  interface FastifyContextConfig {
    /** Requests that need no tenant (health checks). */
    tenantless?: boolean;
    /** Rate-limit bucket; defaults to the surface's. */
    rateLimitClass?: RateLimitClass;
    /** A further bucket some requests of the route also draw from (e.g. GET /clients with q). */
    extraRateLimitClass?: (request: FastifyRequest) => RateLimitClass | undefined;
  }
}

export interface AppOptions {
  https?: { key: string | Buffer; cert: string | Buffer } | null;
  /** The Authentication API's grants, client-authentication methods, response types and modes (default: all of Gatehouse's). */
  registries?: AuthenticationRegistries;
  /** Traces, when on (src/platform/tracing/tracing.ts): each request's span gets its route, tenant and grant type. */
  tracing?: Tracing;
}

/**
 * Fastify's `trustProxy` for GATEHOUSE_TRUST_PROXY. A hop count trusts the
 * TCP peer and the hops before it up to that count (Express's meaning; Fastify
 * itself no longer takes numbers); addresses and ranges are compiled by
 * proxy-addr. A hop count cannot tell a proxy from a client that reaches
 * Gatehouse directly, so the README recommends addresses.
 */
function trustProxyOption(setting: false | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/** The host a request was addressed to, lower case, port kept: the tenant's domain. */
function requestDomain(request: FastifyRequest): string {
  return (request.headers.host ?? '').toLowerCase();
}

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const limits = { requestTimeoutMs: ctx.config.requestTimeoutMs, maxConnectionsPerAddress: ctx.config.maxConnectionsPerAddress };
  const serverOptions: FastifyServerOptions & { https?: unknown; http?: ServerOptions } = {
    loggerInstance: ctx.logger,
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    // request.ip is the end user's only behind proxies the operator named (GATEHOUSE_TRUST_PROXY).
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    forceCloseConnections: 'idle',
    // Resource-server ids may be audiences (URLs) in the path, URL-encoded.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 2048 },
    // Slow requests, oversized headers and malformed bytes (./connections.ts).
    requestTimeout: limits.requestTimeoutMs,
    http: timeoutOptions(limits),
    clientErrorHandler,
    // Response schemas are compiled on first use, like request schemas (platform/http/validation.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  };
  // An HTTPS server takes the HTTP server's options among its own.
  if (options.https) serverOptions.https = { ...options.https, ...timeoutOptions(limits) };
  const app = Fastify(serverOptions as FastifyServerOptions) as unknown as FastifyInstance;
  limitConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress, options.https ? ctx.config.tlsHandshakeTimeoutMs : undefined);
  const registries = options.registries ?? defaultRegistries();
  // JWKS and discovery are answered from memory ahead of Fastify's own listener (authentication/well-known/listener.ts).
  const [fastifyListener] = app.server.listeners('request') as Parameters<typeof wellKnownListener>[2][];
  if (fastifyListener) {
    app.server.removeListener('request', fastifyListener);
    app.server.on('request', wellKnownListener(ctx, registries, fastifyListener));
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  // Bodies are JSON or forms only; other media types are refused by the error handler.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  app.addHook('preValidation', refuseNulCharacters);
  await app.register(formbody);

  app.decorateRequest('tenant', null as unknown as Tenant);
  // Requests by route pattern and status (./request-metrics.ts), before any route is registered.
  countRequests(app, ctx.metrics);
  annotateRequestSpans(
    app,
    options.tracing,
    registries.grants.map((grant) => grant.grantType),
  );

  app.addHook('onRequest', async (request, reply) => {
    // One read: each read of `request.routeOptions` builds and freezes a new object.
    const { tenantless, rateLimitClass, extraRateLimitClass } = request.routeOptions.config;
    if (tenantless) return;
    const surface = surfaceOf(request.url);
    const domain = requestDomain(request);
    const tenant = domain ? await ctx.tenants.byDomain(domain) : undefined;
    if (!tenant) {
      const message = `No tenant is configured for the host "${domain}". Create one with: gatehouse tenants create ${domain || '<domain>'}`;
      // One error; the surface renders it (platform/http/error-rendering.ts).
      throw oauthErrors.notFound(message);
    }
    request.tenant = tenant;

    const consume = (bucket: RateLimitClass) =>
      ctx.rateLimiter.consume(bucket, `${tenant.id}:${bucket}`, tenant.settings.rate_limits?.[bucket] ?? ctx.config.rateLimits[bucket]);
    let decision = await consume(rateLimitClass ?? surface);
    const extra = extraRateLimitClass?.(request);
    // The headers describe the narrower bucket when a request draws from two.
    if (extra && decision.allowed) decision = await consume(extra);
    reply.header('X-RateLimit-Limit', String(decision.limit));
    reply.header('X-RateLimit-Remaining', String(decision.remaining));
    reply.header('X-RateLimit-Reset', String(decision.resetAt));
    if (!decision.allowed) {
      reply.header('Retry-After', String(decision.retryAfter));
      throw surface === 'management' ? managementErrors.tooManyRequests() : oauthErrors.tooManyRequests();
    }
  });

  // Graceful shutdown: Fastify closes the connections idle when closing starts;
  // keep-alive connections that go idle later (their request answered) are
  // closed by this sweep, so close() finishes as soon as in-flight requests do.
  app.addHook('preClose', async () => {
    const server = app.server as { closeIdleConnections?: () => void };
    const sweep = setInterval(() => server.closeIdleConnections?.(), 50);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!ctx.logger.isLevelEnabled('info')) return;
    // One line per request; the query string is left out because it may carry codes or tokens.
    // A failed request carries its error code (`error` or `errorCode` of the answer), never its message or parameters.
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        tenant: request.tenant?.name,
        error: failureCode(reply),
      },
      'request',
    );
  });

  app.get('/health', { config: { tenantless: true } }, async (_request, reply) => {
    try {
      await ctx.checkDatabase();
      return reply.send({ status: 'ok' });
    } catch (error) {
      ctx.logger.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  registerReadinessRoute(app, ctx);
  registerMetricsRoute(app, ctx);

  registerOpenApi(app);
  await app.register(managementPlugin(ctx), { prefix: '/api/v2' });
  app.route(openApiRoute(app));
  await app.register(authenticationRoutes(ctx, registries));

  app.setNotFoundHandler(async (request) => {
    throw surfaceOf(request.url) === 'management'
      ? managementErrors.notFound()
      : oauthErrors.notFound(`Not Found: ${request.method} ${request.url.split('?')[0]}`);
  });

  return app;
}
