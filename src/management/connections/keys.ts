/**
 * The keys of `oidc` and `okta` connections (src/domain/connections/keys.ts):
 * GET /api/v2/connections/{id}/keys, POST …/keys (the first `current` and
 * `next` keys; 409 when the connection has keys), POST …/keys/rotate (the
 * new `next` key). Other strategies: 400, as the service documents these
 * for Okta and OIDC connections only. `signing_alg` RS256 (default), RS384,
 * RS512, PS256, PS384; ES256 and ES384 are refused for now.
 */
import { Type } from '@sinclair/typebox';
import { connectionKeyOf, newConnectionKey, RSA_KEY_ALGS, type ConnectionKey, type ConnectionKeyStore } from '../../domain/connections/keys.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { managementErrors } from '../../platform/http/errors.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { IdParams } from './schema.js';
import type { ConnectionService } from './service.js';

const KEY_STRATEGIES = ['oidc', 'okta'];

const Key = Type.Object(
  {
    kid: Type.String(),
    cert: Type.String(),
    pkcs: Type.String(),
    current: Type.Optional(Type.Boolean()),
    next: Type.Optional(Type.Boolean()),
    previous: Type.Optional(Type.Boolean()),
    current_since: Type.Optional(Type.String()),
    fingerprint: Type.String(),
    thumbprint: Type.String(),
    algorithm: Type.String(),
    key_use: Type.String(),
    subject_dn: Type.String(),
  },
  { additionalProperties: false },
);
const Body = Type.Union([Type.Null(), Type.Object({ signing_alg: Type.Optional(Type.String({ enum: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'ES256', 'ES384'] })) }, { additionalProperties: false })]);

/** What the key operations touch. */
export interface ConnectionKeysContext {
  readonly now: () => number;
  readonly box: SecretBox;
  readonly stores: { readonly connectionKeys: ConnectionKeyStore };
}

async function keyConnection(connections: ConnectionService, tenant: Tenant, id: string): Promise<ConnectionRow> {
  const row = await connections.find(tenant, id);
  if (!KEY_STRATEGIES.includes(row.strategy)) throw managementErrors.badRequest(`Connection keys are only available for the ${KEY_STRATEGIES.join(' and ')} strategies.`, 'operation_not_supported');
  return row;
}

function algorithmOf(body: { signing_alg?: string } | null | undefined): string {
  const alg = body?.signing_alg ?? 'RS256';
  if (!RSA_KEY_ALGS.includes(alg)) throw managementErrors.badRequest(`signing_alg ${alg} is not supported by Gatehouse yet (use one of ${RSA_KEY_ALGS.join(', ')}).`, 'operation_not_supported');
  return alg;
}

export const connectionKeyRoutes = (ctx: ConnectionKeysContext): ManagementRouteFactory<ConnectionService>[] => [
  (_ctx, connections) => managementRoute({
    method: 'GET',
    url: '/connections/:id/keys',
    config: { scopes: ['read:connections_keys'] },
    schema: { params: IdParams, response: { 200: Type.Array(Key) } },
    handler: async (request) => {
      const row = await keyConnection(connections, request.tenant, request.params.id);
      return (await ctx.stores.connectionKeys.list(request.tenant.id, row.id)).map(connectionKeyOf);
    },
  }),
  (_ctx, connections) => managementRoute({
    method: 'POST',
    url: '/connections/:id/keys',
    config: { scopes: ['create:connections_keys'] },
    schema: { params: IdParams, body: Type.Optional(Body), response: { 201: Type.Array(Key) } },
    handler: async (request, reply) => {
      const row = await keyConnection(connections, request.tenant, request.params.id);
      const algorithm = algorithmOf(request.body);
      const now = isoAt(ctx.now());
      const at = { tenantId: request.tenant.id, connectionId: row.id, domain: request.tenant.domain };
      const keys = [await newConnectionKey(ctx.box, at, algorithm, 'current', now), await newConnectionKey(ctx.box, at, algorithm, 'next', now)];
      if (!(await ctx.stores.connectionKeys.provision(keys))) throw managementErrors.conflict('Keys have already been created for this connection.');
      return reply.code(201).send(keys.map(connectionKeyOf) satisfies ConnectionKey[]);
    },
  }),
  (_ctx, connections) => managementRoute({
    method: 'POST',
    url: '/connections/:id/keys/rotate',
    config: { scopes: ['create:connections_keys', 'update:connections_keys'], allScopes: true },
    schema: { params: IdParams, body: Type.Optional(Body), response: { 201: Key } },
    handler: async (request, reply) => {
      const row = await keyConnection(connections, request.tenant, request.params.id);
      const algorithm = algorithmOf(request.body);
      const now = isoAt(ctx.now());
      const next = await newConnectionKey(ctx.box, { tenantId: request.tenant.id, connectionId: row.id, domain: request.tenant.domain }, algorithm, 'next', now);
      if (!(await ctx.stores.connectionKeys.rotate(request.tenant.id, row.id, next, now))) throw managementErrors.badRequest('The connection has no keys to rotate: provision them with POST /api/v2/connections/{id}/keys first.');
      return reply.code(201).send(connectionKeyOf(next));
    },
  }),
];
