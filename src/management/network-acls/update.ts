import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { NetworkAclParams, NetworkAclResponse, UpdateNetworkAclBody } from './schema.js';
import type { NetworkAclService } from './service.js';

/** PATCH /api/v2/network-acls/{id}: the members given replaced. */
export const updateNetworkAcl: ManagementRouteFactory<NetworkAclService> = (_ctx, acls) => managementRoute({
  method: 'PATCH',
  url: '/network-acls/:id',
  config: { scopes: ['update:network_acls'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: NetworkAclParams, body: UpdateNetworkAclBody, response: { 200: NetworkAclResponse } },
  handler: async (request) => acls.update(request.tenant, request.params.id, request.body),
});
