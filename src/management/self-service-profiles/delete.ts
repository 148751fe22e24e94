import { NoContent, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileIdParams } from './schema.js';
import type { SelfServiceProfileService } from './service.js';

/** DELETE /api/v2/self-service-profiles/{id} → 204; its tickets stop working. */
export const deleteSelfServiceProfile: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'DELETE',
  url: '/self-service-profiles/:id',
  config: { scopes: ['delete:self_service_profiles'] },
  schema: { params: ProfileIdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await profiles.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
