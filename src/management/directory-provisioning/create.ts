import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { CreateDirectoryProvisioningBody, DirectoryProvisioningResponse, IdParams } from './schema.js';

/** POST /api/v2/connections/{id}/directory-provisioning → 201; the default mapping unless one is given; 409 when there is one. */
export const createDirectoryProvisioning: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'POST',
  url: '/connections/:id/directory-provisioning',
  config: { scopes: ['create:directory_provisionings'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: CreateDirectoryProvisioningBody, response: { 201: DirectoryProvisioningResponse } },
  handler: async (request, reply) => reply.code(201).send(await directory.create(request.tenant, request.params.id, request.body ?? undefined)),
});
