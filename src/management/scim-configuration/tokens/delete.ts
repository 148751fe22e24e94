import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { ScimConfigurationService } from '../service.js';
import { TokenParams } from '../schema.js';

/** DELETE /api/v2/connections/{id}/scim-configuration/tokens/{tokenId} → 204; the token stops working at once. */
export const deleteScimToken: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'DELETE',
  url: '/connections/:id/scim-configuration/tokens/:tokenId',
  config: { scopes: ['delete:scim_token'] },
  schema: { params: TokenParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await scim.deleteToken(request.tenant, request.params.id, request.params.tokenId);
    return reply.code(204).send();
  },
});
