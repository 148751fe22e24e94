import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { DirectoryProvisioningResponse, IdParams } from './schema.js';

/** GET /api/v2/connections/{id}/directory-provisioning, with the last synchronization's state. */
export const getDirectoryProvisioning: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'GET',
  url: '/connections/:id/directory-provisioning',
  config: { scopes: ['read:directory_provisionings'] },
  schema: { params: IdParams, response: { 200: DirectoryProvisioningResponse } },
  handler: async (request) => directory.get(request.tenant, request.params.id),
});
