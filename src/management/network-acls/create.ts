import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { NetworkAclResponse, SetNetworkAclBody } from './schema.js';
import type { NetworkAclService } from './service.js';

/** POST /api/v2/network-acls → 201 with the new rule (the document gives the 201 no body; the SDK reads none). */
export const createNetworkAcl: ManagementRouteFactory<NetworkAclService> = (_ctx, acls) => managementRoute({
  method: 'POST',
  url: '/network-acls',
  config: { scopes: ['create:network_acls'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SetNetworkAclBody, response: { 201: NetworkAclResponse } },
  handler: async (request, reply) => reply.code(201).send(await acls.create(request.tenant, request.body)),
});
