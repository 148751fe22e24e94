import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { DefaultMappingResponse, IdParams } from './schema.js';

/** GET /api/v2/connections/{id}/directory-provisioning/default-mapping */
export const getDirectoryDefaultMapping: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'GET',
  url: '/connections/:id/directory-provisioning/default-mapping',
  config: { scopes: ['read:directory_provisionings'] },
  schema: { params: IdParams, response: { 200: DefaultMappingResponse } },
  handler: async (request) => directory.defaultMapping(request.tenant, request.params.id),
});
