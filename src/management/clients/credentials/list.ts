import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ClientParams, CredentialResponse } from './schema.js';
import type { ClientCredentialService } from './service.js';

/** GET /api/v2/clients/{client_id}/credentials → the client's credentials (public keys, certificates), without paging. */
export const listClientCredentials: ManagementRouteFactory<ClientCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'GET',
  url: '/clients/:client_id/credentials',
  config: { scopes: ['read:client_credentials'] },
  schema: { params: ClientParams, response: { 200: Type.Array(CredentialResponse) } },
  handler: async (request) => credentials.list(request.tenant, request.params.client_id),
});
