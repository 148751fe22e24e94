/**
 * The Management API's catch-all: every request under /api/v2 that no
 * Gatehouse route takes. A path and method of the service's own Management API
 * (its OpenAPI document's list, operations.ts) is authenticated and authorised
 * like any operation, with the scopes the document gives it, then answered as
 * answers.ts says (not available, or the empty list of a tenant that never
 * used the feature). Anything else is the plain 404 of a path that exists
 * nowhere, without authentication, as before.
 *
 * A wildcard route has the lowest precedence in Fastify's router, so an
 * operation that an area implements is always answered by its own route. But
 * a literal path of the service beside a parameter Gatehouse routes
 * (`/custom-domains/default` beside `/custom-domains/{id}`) would reach that
 * route as an id and be answered "does not exist": so every operation of the
 * document that Gatehouse does not route is also registered at its own
 * template, where the router's precedence of literal segments over
 * parameters sends it here. The routes answer in onRequest, before any body
 * is read: a body sent to an operation Gatehouse lacks means nothing to it
 * (and may be a multipart upload).
 */
import type { FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';
import { answerFor, notAvailable, type EmptyList } from './answers.js';
import { serviceOperation, serviceOperations, type ServiceOperation } from './operations.js';
import { authenticateManagement, authorizeOperation, type ManagementAuthContext } from '../auth.js';
import { MAX_PAGE, MAX_PER_PAGE } from '../paging.js';
import { managementErrors } from '../../platform/http/errors.js';

const PREFIX = '/api/v2';

const METHODS: readonly HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A route's path with its parameters' names left out: `/users/{}/roles` for `/users/:id/roles` and `/users/{id}/roles`. */
const shape = (path: string): string => path.replace(/\/(?::[^/]+|\{[^/{}]+\})/g, '/{}');

/**
 * The catch-all, and a route at its own template for each operation of the
 * service's document that none of `served` (Gatehouse's Management API
 * routes, URLs under /api/v2) takes.
 */
export function notAvailableRoutes(ctx: ManagementAuthContext, served: readonly RouteOptions[]): RouteOptions[] {
  const taken = new Set(served.flatMap((route) => [route.method].flat().map((method) => `${method} ${shape(route.url)}`)));
  const byTemplate = new Map<string, ServiceOperation[]>();
  for (const operation of serviceOperations()) {
    if (taken.has(`${operation.method} ${shape(operation.template)}`)) continue;
    byTemplate.set(operation.template, [...(byTemplate.get(operation.template) ?? []), operation]);
  }
  const explicit = [...byTemplate].map(([template, operations]): RouteOptions => {
    const byMethod = new Map(operations.map((operation) => [operation.method, operation]));
    return {
      method: operations.map((operation) => operation.method as HTTPMethods),
      url: template.replace(/\{([^/{}]+)\}/g, ':$1'),
      exposeHeadRoute: false,
      onRequest: async (request, reply) => answer(ctx, request, reply, byMethod.get(request.method)),
      handler: neverReached,
    };
  });
  return [...explicit, catchAll(ctx)];
}

function catchAll(ctx: ManagementAuthContext): RouteOptions {
  return {
    method: [...METHODS],
    url: '/*',
    onRequest: async (request, reply) => {
      const path = request.url.split('?')[0]!.slice(PREFIX.length);
      return answer(ctx, request, reply, serviceOperation(request.method, path));
    },
    handler: neverReached,
  };
}

/** Never reached: onRequest has answered. */
async function neverReached(): Promise<never> {
  throw managementErrors.notFound();
}

async function answer(ctx: ManagementAuthContext, request: FastifyRequest, reply: FastifyReply, operation: ServiceOperation | undefined): Promise<FastifyReply> {
  if (operation === undefined) throw managementErrors.notFound();
  const principal = await authenticateManagement(ctx, request);
  authorizeOperation(principal, { scopes: operation.scopes }, undefined);
  const decided = answerFor(operation);
  if (decided.kind === 'not_available') throw notAvailable(operation, 404);
  if (decided.kind === 'forbidden') throw notAvailable(operation, 403);
  return sendEmptyList(request, reply, decided.list);
}

async function sendEmptyList(request: FastifyRequest, reply: FastifyReply, list: EmptyList): Promise<FastifyReply> {
  const query = request.query as Record<string, unknown>;
  const page = integerParameter(query, 'page', 0, 0, MAX_PAGE);
  const perPage = integerParameter(query, 'per_page', 50, 1, MAX_PER_PAGE);
  const body = (() => {
    switch (list.paging) {
      case 'array':
        return [];
      case 'none':
        return { [list.key]: [] };
      case 'page':
        return { [list.key]: [], total: 0, page, per_page: perPage };
      case 'offset':
        return query.include_totals === 'true' ? { [list.key]: [], start: page * perPage, limit: perPage, total: 0 } : [];
    }
  })();
  return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** A paging parameter as the service bounds it; absent means `fallback`. */
function integerParameter(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,7}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw managementErrors.badRequest(`Query validation error: 'Invalid value' on property ${name}.`, 'invalid_query_string');
  }
  return Number(raw);
}
