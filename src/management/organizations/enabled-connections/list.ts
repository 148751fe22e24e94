import { Type } from '@sinclair/typebox';
import { OffsetQuery, offsetListResponse } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { OrganizationConnectionResponse } from './schema.js';
import type { OrganizationConnectionService } from './service.js';

const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/** GET /api/v2/organizations/{id}/enabled_connections → by connection id, offset paging. */
export const listOrganizationConnections: ManagementRouteFactory<OrganizationConnectionService> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/enabled_connections',
  config: { scopes: ['read:organization_connections'] },
  schema: { params: OrganizationIdParams, querystring: Query, response: { 200: offsetListResponse('enabled_connections', OrganizationConnectionResponse) } },
  handler: async (request) => connections.list(request.tenant, request.params.id, request.query, 'enabled_connections'),
});
