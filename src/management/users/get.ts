import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';
import { UserResponse, userIdParams } from './schema.js';
import { IDP_TOKENS_SCOPE, withIdpTokens, type FederatedTokenSetContext } from './federated-tokensets/routes.js';

const Params = userIdParams('ID of the user to retrieve');

/**
 * GET /api/v2/users/{id} (`fields`/`include_fields` are not supported yet and are ignored).
 * An end user's token with `read:current_user` reads its own user. The
 * identities carry their upstream tokens only for read:user_idp_tokens.
 */
export const getUser: ManagementRouteFactory<UserService, FederatedTokenSetContext> = (ctx, users) => managementRoute({
  method: 'GET',
  url: '/users/:id',
  config: { scopes: ['read:users', 'read:current_user'], currentUser: true },
  schema: { params: Params, response: { 200: UserResponse } },
  handler: async (request) => {
    const user = await users.get(request.tenant, request.params.id);
    // The upstream identity providers' tokens only to a token with read:user_idp_tokens.
    return request.principal?.scopes.has(IDP_TOKENS_SCOPE) ? withIdpTokens(ctx, request.tenant.id, user) : user;
  },
});
