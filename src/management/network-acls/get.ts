import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { NetworkAclParams, NetworkAclResponse } from './schema.js';
import type { NetworkAclService } from './service.js';

/** GET /api/v2/network-acls/{id} */
export const getNetworkAcl: ManagementRouteFactory<NetworkAclService> = (_ctx, acls) => managementRoute({
  method: 'GET',
  url: '/network-acls/:id',
  config: { scopes: ['read:network_acls'] },
  schema: { params: NetworkAclParams, response: { 200: NetworkAclResponse } },
  handler: async (request) => acls.get(request.tenant, request.params.id),
});
