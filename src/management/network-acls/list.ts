import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ListQuery, NetworkAclList } from './schema.js';
import type { NetworkAclService } from './service.js';

/** GET /api/v2/network-acls: the tenant's rules by priority, offset paging. */
export const listNetworkAcls: ManagementRouteFactory<NetworkAclService> = (_ctx, acls) => managementRoute({
  method: 'GET',
  url: '/network-acls',
  config: { scopes: ['read:network_acls'] },
  schema: { querystring: ListQuery, response: { 200: NetworkAclList } },
  handler: async (request) => acls.list(request.tenant, request.query),
});
