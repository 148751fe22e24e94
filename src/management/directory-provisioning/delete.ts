import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { IdParams } from './schema.js';

/** DELETE /api/v2/connections/{id}/directory-provisioning → 204; the users it synchronized stay. */
export const deleteDirectoryProvisioning: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'DELETE',
  url: '/connections/:id/directory-provisioning',
  config: { scopes: ['delete:directory_provisionings'] },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await directory.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
