import { offsetListResponse } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { EncryptionKey, EncryptionKeysQuery } from './schema.js';
import type { EncryptionKeyService } from './service.js';

/** GET /api/v2/keys/encryption: the environment root key and the tenant's keys, an array or `{keys, start, limit, total}`. */
export const listEncryptionKeys: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'GET',
  url: '/keys/encryption',
  config: { scopes: ['read:encryption_keys'] },
  schema: { querystring: EncryptionKeysQuery, response: { 200: offsetListResponse('keys', EncryptionKey) } },
  handler: async (request) => keys.list(request.tenant, request.query),
});
