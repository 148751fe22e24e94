import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { AddAllConnectionBody, OrganizationAllConnectionResponse } from './schema.js';
import type { OrganizationAllConnectionService } from './service.js';

/** POST /api/v2/organizations/{id}/connections → 201 with the organization's connection. */
export const addOrganizationAllConnection: ManagementRouteFactory<OrganizationAllConnectionService> = (_ctx, connections) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/connections',
  config: { scopes: ['create:organization_connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: OrganizationIdParams, body: AddAllConnectionBody, response: { 201: OrganizationAllConnectionResponse } },
  handler: async (request, reply) => reply.code(201).send(await connections.add(request.tenant, request.params.id, request.body)),
});
