import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { UserIdentityService } from './service.js';
import { Identities, LinkIdentityBody, LinkParams } from './schema.js';

/**
 * POST /api/v2/users/{id}/identities → 201 with the primary's identities. With
 * `update:users`, the secondary named by `provider` + `user_id` (or its ID
 * token `link_with`); an end user's own token with
 * `update:current_user_identities` links itself with `link_with` only.
 */
export const linkUserIdentity: ManagementRouteFactory<UserIdentityService> = (_ctx, identities) => managementRoute({
  method: 'POST',
  url: '/users/:id/identities',
  config: { scopes: ['update:users', 'update:current_user_identities'], currentUser: true },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: LinkParams, body: LinkIdentityBody, response: { 201: Identities } },
  handler: async (request, reply) => reply.code(201).send(await identities.link(request.tenant, request.params.id, request.body, request.principal!)),
});
