import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { CustomSigningKeyService } from './service.js';

/** DELETE /api/v2/keys/custom-signing → 204, whether or not there were keys (the document gives it no 404). */
export const deleteCustomSigningKeys: ManagementRouteFactory<CustomSigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'DELETE',
  url: '/keys/custom-signing',
  config: { scopes: ['delete:custom_signing_keys'] },
  schema: { response: { 204: NoContent } },
  handler: async (request, reply) => {
    await keys.delete(request.tenant);
    return reply.code(204).send();
  },
});
