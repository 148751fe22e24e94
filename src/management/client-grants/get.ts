import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ClientGrantService } from './service.js';
import { ClientGrantResponse, IdParams } from './schema.js';

/** GET /api/v2/client-grants/{id} */
export const getClientGrant: ManagementRouteFactory<ClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'GET',
  url: '/client-grants/:id',
  config: { scopes: ['read:client_grants'] },
  schema: { params: IdParams, response: { 200: ClientGrantResponse } },
  handler: async (request) => clientGrants.get(request.tenant, request.params.id),
});
