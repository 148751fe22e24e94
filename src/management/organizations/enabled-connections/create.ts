import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { AddConnectionBody, OrganizationConnectionResponse } from './schema.js';
import type { OrganizationConnectionService } from './service.js';

/** POST /api/v2/organizations/{id}/enabled_connections → 201 with the enabled connection. */
export const addOrganizationConnection: ManagementRouteFactory<OrganizationConnectionService> = (_ctx, connections) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/enabled_connections',
  config: { scopes: ['create:organization_connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: OrganizationIdParams, body: AddConnectionBody, response: { 201: OrganizationConnectionResponse } },
  handler: async (request, reply) => reply.code(201).send(await connections.add(request.tenant, request.params.id, request.body)),
});
