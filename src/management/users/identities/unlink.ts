import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { UserIdentityService } from './service.js';
import { Identities, UnlinkParams } from './schema.js';

/**
 * DELETE /api/v2/users/{id}/identities/{provider}/{user_id} → 200 with the
 * primary's remaining identities; the identity is a user of its own again.
 * An end user's own token with `update:current_user_identities` unlinks from itself.
 */
export const unlinkUserIdentity: ManagementRouteFactory<UserIdentityService> = (_ctx, identities) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/identities/:provider/:user_id',
  config: { scopes: ['update:users', 'update:current_user_identities'], currentUser: true },
  schema: { params: UnlinkParams, response: { 200: Identities } },
  handler: async (request) => identities.unlink(request.tenant, request.params.id, request.params.provider, request.params.user_id),
});
