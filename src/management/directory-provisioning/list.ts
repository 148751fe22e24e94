import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { DirectoryProvisioningListQuery, DirectoryProvisioningListResponse } from './schema.js';

/** GET /api/v2/connections-directory-provisionings → `{directory_provisionings, next?}`, checkpoint paging by connection id. */
export const listDirectoryProvisionings: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'GET',
  url: '/connections-directory-provisionings',
  config: { scopes: ['read:directory_provisionings'] },
  schema: { querystring: DirectoryProvisioningListQuery, response: { 200: DirectoryProvisioningListResponse } },
  handler: async (request) => directory.list(request.tenant, request.query),
});
