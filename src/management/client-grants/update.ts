import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ClientGrantService } from './service.js';
import { ClientGrantResponse, IdParams, UpdateClientGrantBody } from './schema.js';

/** PATCH /api/v2/client-grants/{id} → 200 */
export const updateClientGrant: ManagementRouteFactory<ClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'PATCH',
  url: '/client-grants/:id',
  config: { scopes: ['update:client_grants'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateClientGrantBody, response: { 200: ClientGrantResponse } },
  handler: async (request) =>
    clientGrants.update(request.tenant, request.params.id, request.body),
});
