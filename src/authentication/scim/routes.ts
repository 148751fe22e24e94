/**
 * The SCIM 2.0 endpoint of each connection that has a SCIM configuration,
 * `https://{domain}/scim/v2/connections/{id}/…` (the service's URL): a
 * pipeline per request of `authenticateScim` (the bearer token and the
 * operation's scope), `loadTarget` (the connection and its configuration),
 * then the operation. Bodies are application/scim+json (or
 * application/json), at most the server's 1 MiB; every error is SCIM's
 * (./errors.ts).
 */
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { ScimTokenScope } from '../../domain/scim/connections.js';
import { takesScim } from '../../domain/scim/connections.js';
import { MAX_JSON_DEPTH, scanJson } from '../../platform/http/json-body.js';
import { authenticateScim, type ScimAuthContext } from './auth.js';
import { errorHandler } from '../../platform/http/error-handler.js';
import { MAX_BODY_BYTES, SCIM_MEDIA_TYPE, ScimError, scimErrors, scimFrameworkError, scimShape } from './errors.js';
import { resourceTypes, schemas, serviceProviderConfig } from './resources.js';
import { ScimUsers, type ScimTarget, type ScimUsersContext } from './users.js';
import { projectionOf, ScimGroups, type ScimGroupsContext } from './groups.js';

export type ScimContext = ScimUsersContext & ScimGroupsContext & ScimAuthContext & { readonly stores: { readonly connections: Pick<ConnectionStore, 'get'> } };

type Params = { id: string; userId?: string; groupId?: string; resourceType?: string; schemaId?: string };
type ListQuery = { filter?: string; startIndex?: string; count?: string; attributes?: string; excludedAttributes?: string };
type Handler = (target: ScimTarget, request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<unknown>;

async function loadTarget(ctx: ScimContext, request: FastifyRequest<{ Params: Params }>): Promise<ScimTarget> {
  const tenant = request.tenant;
  const connectionId = request.params.id;
  const connection = await ctx.stores.connections.get(tenant.id, connectionId);
  const configuration = connection && takesScim(connection.strategy) ? await ctx.stores.scim.getConfiguration(tenant.id, connectionId) : undefined;
  if (!connection || !configuration) throw scimErrors.notFound('The connection has no SCIM configuration');
  return { tenant, connection, configuration, baseUrl: `${tenant.issuer}scim/v2/connections/${encodeURIComponent(connectionId)}` };
}

const send = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type(`${SCIM_MEDIA_TYPE}; charset=utf-8`).header('Cache-Control', 'no-store').send(body);

export function scimRoutes(ctx: ScimContext): FastifyPluginAsync {
  const users = new ScimUsers(ctx);
  const groups = new ScimGroups(ctx);
  const route = (method: HTTPMethods, url: string, scope: ScimTokenScope | undefined, handler: Handler): RouteOptions => ({
    method,
    url: `/scim/v2/connections/:id${url}`,
    bodyLimit: MAX_BODY_BYTES,
    config: { renderError: scimShape, ownParameterLimits: true },
    handler: async (request, reply) => {
      const typed = request as FastifyRequest<{ Params: Params }>;
      if (typed.params.id.length > 64) throw scimErrors.notFound('The connection has no SCIM configuration');
      await authenticateScim(ctx, request, typed.params.id, scope);
      const target = await loadTarget(ctx, typed);
      return handler(target, typed, reply);
    },
  });
  const userId = (request: FastifyRequest<{ Params: Params }>) => request.params.userId!;
  const groupId = (request: FastifyRequest<{ Params: Params }>) => request.params.groupId!;
  const query = (request: FastifyRequest) => request.query as ListQuery;
  return async (app) => {
    // The framework's refusals (body limit, JSON syntax, media type) become SCIM errors; the one error handler answers them.
    app.setErrorHandler((error: FastifyError, request, reply) =>
      errorHandler(scimFrameworkError(error, (err) => request.log.error({ err }, 'unhandled error')) as FastifyError, request, reply),
    );
    // application/scim+json (RFC 7644 §3.1) parsed as JSON, with the depth check of every JSON body (platform/http/json-body.ts).
    const parse = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser(SCIM_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
      if (scanJson(body as string, MAX_JSON_DEPTH) !== undefined) {
        done(scimErrors.invalidSyntax(`The body nests deeper than ${MAX_JSON_DEPTH} levels or holds a NUL character`), undefined);
        return;
      }
      parse(request, body as string, done);
    });
    for (const options of [
      route('GET', '/ServiceProviderConfig', undefined, async (target, _request, reply) => send(reply, 200, serviceProviderConfig(target.baseUrl))),
      route('GET', '/ResourceTypes', undefined, async (target, _request, reply) => {
        const types = resourceTypes(target.baseUrl);
        return send(reply, 200, { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: types.length, startIndex: 1, itemsPerPage: types.length, Resources: types });
      }),
      route('GET', '/ResourceTypes/:resourceType', undefined, async (target, request, reply) => {
        const found = resourceTypes(target.baseUrl).find((type) => type.id === request.params.resourceType);
        if (!found) throw scimErrors.notFound('Unknown resource type');
        return send(reply, 200, found);
      }),
      route('GET', '/Schemas', undefined, async (target, _request, reply) => {
        const all = schemas(target.baseUrl);
        return send(reply, 200, { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: all.length, startIndex: 1, itemsPerPage: all.length, Resources: all });
      }),
      route('GET', '/Schemas/:schemaId', undefined, async (target, request, reply) => {
        const found = schemas(target.baseUrl).find((schema) => schema.id === request.params.schemaId);
        if (!found) throw scimErrors.notFound('Unknown schema');
        return send(reply, 200, found);
      }),
      route('GET', '/Users', 'get:users', async (target, request, reply) => send(reply, 200, await users.list(target, request.query as Record<string, string>))),
      route('POST', '/Users', 'post:users', async (target, request, reply) => {
        const created = await users.create(target, request.body);
        return send(reply.header('Location', (created.meta as { location: string }).location), 201, created);
      }),
      route('GET', '/Users/:userId', 'get:users', async (target, request, reply) => send(reply, 200, await users.get(target, userId(request)))),
      route('PUT', '/Users/:userId', 'put:users', async (target, request, reply) => send(reply, 200, await users.replace(target, userId(request), request.body))),
      route('PATCH', '/Users/:userId', 'patch:users', async (target, request, reply) => send(reply, 200, await users.patch(target, userId(request), request.body))),
      route('DELETE', '/Users/:userId', 'delete:users', async (target, request, reply) => {
        await users.delete(target, userId(request));
        return reply.code(204).header('Cache-Control', 'no-store').send();
      }),
      route('GET', '/Groups', 'get:groups', async (target, request, reply) => send(reply, 200, await groups.list(target, query(request)))),
      route('POST', '/Groups', 'post:groups', async (target, request, reply) => {
        const created = await groups.create(target, request.body);
        return send(reply.header('Location', (created.meta as { location: string }).location), 201, created);
      }),
      route('GET', '/Groups/:groupId', 'get:groups', async (target, request, reply) => send(reply, 200, await groups.get(target, groupId(request), projectionOf(query(request))))),
      route('PUT', '/Groups/:groupId', 'put:groups', async (target, request, reply) => send(reply, 200, await groups.replace(target, groupId(request), request.body))),
      route('PATCH', '/Groups/:groupId', 'patch:groups', async (target, request, reply) =>
        send(reply, 200, await groups.patch(target, groupId(request), request.body, projectionOf(query(request)))),
      ),
      route('DELETE', '/Groups/:groupId', 'delete:groups', async (target, request, reply) => {
        await groups.delete(target, groupId(request));
        return reply.code(204).header('Cache-Control', 'no-store').send();
      }),
    ]) {
      app.route(options);
    }
    // Any other resource (Bulk, /Me …) is not served: SCIM's 404.
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/scim/v2/*',
      config: { renderError: scimShape, ownParameterLimits: true },
      handler: async () => {
        throw new ScimError(404, 'Gatehouse serves /Users, /Groups, /ServiceProviderConfig, /ResourceTypes and /Schemas of a connection');
      },
    });
  };
}
