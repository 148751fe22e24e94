/**
 * GET /api/v2/users/{id}/connected-accounts (read:users): the user's
 * connected accounts. In Gatehouse a connected account is a token set the
 * token vault keeps for the user at an upstream connection
 * (src/domain/upstream-tokens/, GET /users/{id}/federated-connections-tokensets)
 * that holds a refresh token: the document knows one access type, `offline`,
 * and a set without a refresh token cannot be used once its access token
 * expires, so it is not listed. `created_at` is when the set was last issued
 * (a new login replaces it), `scopes` the provider's granted scope split on
 * spaces; `expires_at` is left out (a refresh token's lifetime is the
 * provider's and not known) as is `organization_id` (token sets are not tied
 * to an organization). Checkpoint paging (`from`, `take`: 10 by default),
 * ordered by id; 404 for an unknown user.
 */
import { Type } from '@sinclair/typebox';
import type { ConnectionStore } from '../../../domain/connections/store.js';
import type { UpstreamTokenSetStore } from '../../../domain/upstream-tokens/store.js';
import type { UserStore } from '../../../domain/users/store.js';
import { checkpointList, checkpointListResponse, checkpointPaging, type CheckpointSealing } from '../../lists.js';
import { CheckpointPagingQuery } from '../../paging.js';
import { managementRoute, type ManagementRoute } from '../../route.js';
import { userNotFound } from '../service.js';

export interface ConnectedAccountContext extends CheckpointSealing {
  readonly stores: {
    readonly users: Pick<UserStore, 'get'>;
    readonly upstreamTokenSets: Pick<UpstreamTokenSetStore, 'list'>;
    readonly connections: Pick<ConnectionStore, 'get'>;
  };
}

const ConnectedAccount = Type.Object(
  {
    id: Type.String(),
    connection: Type.String(),
    connection_id: Type.String(),
    strategy: Type.String(),
    access_type: Type.Literal('offline'),
    scopes: Type.Optional(Type.Array(Type.String())),
    created_at: Type.String(),
  },
  { additionalProperties: false },
);

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 512, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'ID of the user to list connected accounts for.' }) });
const Query = Type.Object(
  {
    from: Type.Optional(CheckpointPagingQuery.from),
    take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Number of results to return.  Defaults to 10 with a maximum of 20' })),
  },
  { additionalProperties: true },
);

export function listConnectedAccounts(ctx: ConnectedAccountContext): ManagementRoute {
  return managementRoute({
    method: 'GET',
    url: '/users/:id/connected-accounts',
    config: { scopes: ['read:users'] },
    schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('connected_accounts', ConnectedAccount) } },
    handler: async (request) => {
      const tenantId = request.tenant.id;
      const userId = request.params.id;
      const scope = `${tenantId}:connected_accounts:${userId}`;
      const page = checkpointPaging(ctx, { ...request.query, take: request.query.take ?? 10 }, scope);
      if (!(await ctx.stores.users.get(tenantId, userId))) throw userNotFound();
      // One set per user and connection: a handful, paged here by id.
      const sets = (await ctx.stores.upstreamTokenSets.list(tenantId, userId))
        .filter((set) => set.refresh_token !== null)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .filter((set) => page.after === undefined || set.id > page.after)
        .slice(0, page.take + 1);
      const accounts = await Promise.all(
        sets.map(async (set) => {
          const connection = await ctx.stores.connections.get(tenantId, set.connection_id);
          return {
            id: set.id,
            connection: connection?.name ?? set.connection,
            connection_id: set.connection_id,
            strategy: connection?.strategy ?? 'unknown',
            access_type: 'offline' as const,
            ...(set.scope && { scopes: set.scope.split(' ').filter(Boolean) }),
            created_at: set.issued_at,
          };
        }),
      );
      return checkpointList(ctx, scope, 'connected_accounts', accounts, page.take, (a) => a.id, (a) => a);
    },
  });
}
