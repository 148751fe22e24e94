import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { CredentialParams } from './schema.js';
import type { ClientCredentialService } from './service.js';

/** DELETE /api/v2/clients/{client_id}/credentials/{credential_id} → 204 */
export const deleteClientCredential: ManagementRouteFactory<ClientCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'DELETE',
  url: '/clients/:client_id/credentials/:credential_id',
  config: { scopes: ['delete:client_credentials'] },
  schema: { params: CredentialParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await credentials.delete(request.tenant, request.params.client_id, request.params.credential_id);
    return reply.code(204).send();
  },
});
