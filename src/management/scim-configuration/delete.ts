import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { ScimConfigurationService } from './service.js';
import { IdParams } from './schema.js';

/** DELETE /api/v2/connections/{id}/scim-configuration → 204; its tokens go with it. */
export const deleteScimConfiguration: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'DELETE',
  url: '/connections/:id/scim-configuration',
  config: { scopes: ['delete:scim_config'] },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await scim.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
