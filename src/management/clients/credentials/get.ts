import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CredentialParams, CredentialResponse } from './schema.js';
import type { ClientCredentialService } from './service.js';

/** GET /api/v2/clients/{client_id}/credentials/{credential_id} */
export const getClientCredential: ManagementRouteFactory<ClientCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'GET',
  url: '/clients/:client_id/credentials/:credential_id',
  config: { scopes: ['read:client_credentials'] },
  schema: { params: CredentialParams, response: { 200: CredentialResponse } },
  handler: async (request) => credentials.get(request.tenant, request.params.client_id, request.params.credential_id),
});
