import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { OrganizationService } from './service.js';
import { CreateOrganizationBody, OrganizationResponse } from './schema.js';

/** POST /api/v2/organizations → 201 */
export const createOrganization: ManagementRouteFactory<OrganizationService> = (_ctx, organizations) => managementRoute({
  method: 'POST',
  url: '/organizations',
  config: { scopes: ['create:organizations', 'create:organization_connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateOrganizationBody, response: { 201: OrganizationResponse } },
  handler: async (request, reply) =>
    reply.code(201).send(await organizations.create(request.tenant, request.body)),
});
