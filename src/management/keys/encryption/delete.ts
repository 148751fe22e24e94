import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { EncryptionKeyParams } from './schema.js';
import type { EncryptionKeyService } from './service.js';

/**
 * DELETE /api/v2/keys/encryption/{kid} → 204: removes the customer-provided
 * root key (the tenant goes back to the environment root key) or a destroyed
 * key's record; a key in use is refused with a 400. An unknown kid is a 204,
 * as the document gives the operation no 404.
 */
export const deleteEncryptionKey: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'DELETE',
  url: '/keys/encryption/:kid',
  config: { scopes: ['delete:encryption_keys'] },
  schema: { params: EncryptionKeyParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await keys.delete(request.tenant, request.params.kid);
    return reply.code(204).send();
  },
});
