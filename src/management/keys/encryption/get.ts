import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { EncryptionKey, EncryptionKeyParams } from './schema.js';
import type { EncryptionKeyService } from './service.js';

/** GET /api/v2/keys/encryption/{kid} */
export const getEncryptionKey: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'GET',
  url: '/keys/encryption/:kid',
  config: { scopes: ['read:encryption_keys'] },
  schema: { params: EncryptionKeyParams, response: { 200: EncryptionKey } },
  handler: async (request) => keys.get(request.tenant, request.params.kid),
});
