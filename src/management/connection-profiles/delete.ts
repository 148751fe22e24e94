import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { ProfileParams } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** DELETE /api/v2/connection-profiles/{id} → 204 (the document lists no 404: deleting an unknown id is 204 as well). */
export const deleteProfile: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'DELETE',
  url: '/connection-profiles/:id',
  config: { scopes: ['delete:connection_profiles'] },
  schema: { params: ProfileParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await profiles.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
