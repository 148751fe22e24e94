import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { EncryptionKey, EncryptionKeyParams, ImportEncryptionKeyBody } from './schema.js';
import type { EncryptionKeyService } from './service.js';

/** POST /api/v2/keys/encryption/{kid} → 201: the wrapped material imported; the key becomes the tenant's root key. */
export const importEncryptionKey: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'POST',
  url: '/keys/encryption/:kid',
  config: { scopes: ['update:encryption_keys'] },
  schema: { params: EncryptionKeyParams, body: ImportEncryptionKeyBody, response: { 201: EncryptionKey } },
  handler: async (request, reply) => reply.code(201).send(await keys.import(request.tenant, request.params.kid, request.body.wrapped_key)),
});
