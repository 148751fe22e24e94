import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { DirectoryProvisioningResponse, IdParams, UpdateDirectoryProvisioningBody } from './schema.js';

/** PATCH /api/v2/connections/{id}/directory-provisioning: the members given change, the others stay. */
export const updateDirectoryProvisioning: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'PATCH',
  url: '/connections/:id/directory-provisioning',
  config: { scopes: ['update:directory_provisionings'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateDirectoryProvisioningBody, response: { 200: DirectoryProvisioningResponse } },
  handler: async (request) => directory.update(request.tenant, request.params.id, request.body ?? undefined),
});
