import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { DirectoryProvisioningService } from './service.js';
import { IdParams, SynchronizationResponse } from './schema.js';

/** POST /api/v2/connections/{id}/directory-provisioning/synchronizations → 201 `{connection_id, synchronization_id, status: "pending"}`: a job on the durable queue. */
export const createDirectorySynchronization: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'POST',
  url: '/connections/:id/directory-provisioning/synchronizations',
  config: { scopes: ['create:directory_provisionings'] },
  schema: { params: IdParams, response: { 201: SynchronizationResponse } },
  handler: async (request, reply) => reply.code(201).send(await directory.synchronize(request.tenant, request.params.id)),
});
