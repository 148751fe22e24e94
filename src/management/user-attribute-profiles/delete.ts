import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { ProfileParams } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** DELETE /api/v2/user-attribute-profiles/{id} → 204 (the document lists no 404: deleting an unknown id is 204 as well). */
export const deleteProfile: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'DELETE',
  url: '/user-attribute-profiles/:id',
  config: { scopes: ['delete:user_attribute_profiles'] },
  schema: { params: ProfileParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await profiles.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
