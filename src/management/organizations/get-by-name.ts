import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { OrganizationService } from './service.js';
import { OrganizationResponse } from './schema.js';

const Params = Type.Object({ name: Type.String({ minLength: 1, maxLength: 50, description: 'name of the organization to retrieve' }) });

/** GET /api/v2/organizations/name/{name} */
export const getOrganizationByName: ManagementRouteFactory<OrganizationService> = (_ctx, organizations) => managementRoute({
  method: 'GET',
  url: '/organizations/name/:name',
  config: { scopes: ['read:organizations'] },
  schema: { params: Params, response: { 200: OrganizationResponse } },
  handler: async (request) => organizations.getByName(request.tenant, request.params.name),
});
