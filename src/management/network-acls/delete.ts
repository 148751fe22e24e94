import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { NetworkAclParams } from './schema.js';
import type { NetworkAclService } from './service.js';

/** DELETE /api/v2/network-acls/{id} → 204. */
export const deleteNetworkAcl: ManagementRouteFactory<NetworkAclService> = (_ctx, acls) => managementRoute({
  method: 'DELETE',
  url: '/network-acls/:id',
  config: { scopes: ['delete:network_acls'] },
  schema: { params: NetworkAclParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await acls.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
