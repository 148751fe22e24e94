import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { ProfileParams } from './schema.js';
import type { TokenExchangeProfileService } from './service.js';

/** DELETE /api/v2/token-exchange-profiles/{id} → 204 */
export const deleteProfile: ManagementRouteFactory<TokenExchangeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'DELETE',
  url: '/token-exchange-profiles/:id',
  config: { scopes: ['delete:token_exchange_profiles'] },
  schema: { params: ProfileParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await profiles.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
