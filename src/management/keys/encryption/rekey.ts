import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { EncryptionKeyService } from './service.js';

/**
 * POST /api/v2/keys/encryption/rekey → 204: a new tenant master key and
 * encryption key, and the job that moves every sealed value under them and
 * retires the old ones (src/domain/encryption/rekey.ts); 409 while one runs.
 * The token needs both scopes (the service's document).
 */
export const rekeyEncryptionKeys: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'POST',
  url: '/keys/encryption/rekey',
  config: { scopes: ['create:encryption_keys', 'update:encryption_keys'], allScopes: true },
  schema: { response: { 204: NoContent } },
  handler: async (request, reply) => {
    await keys.rekey(request.tenant);
    return reply.code(204).send();
  },
});
