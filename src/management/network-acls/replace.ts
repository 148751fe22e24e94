import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { NetworkAclParams, NetworkAclResponse, SetNetworkAclBody } from './schema.js';
import type { NetworkAclService } from './service.js';

/** PUT /api/v2/network-acls/{id}: the whole rule replaced. */
export const replaceNetworkAcl: ManagementRouteFactory<NetworkAclService> = (_ctx, acls) => managementRoute({
  method: 'PUT',
  url: '/network-acls/:id',
  config: { scopes: ['update:network_acls'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: NetworkAclParams, body: SetNetworkAclBody, response: { 200: NetworkAclResponse } },
  handler: async (request) => acls.replace(request.tenant, request.params.id, request.body),
});
