import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { EncryptionKeyParams, WrappingKey } from './schema.js';
import type { EncryptionKeyService } from './service.js';

/** POST /api/v2/keys/encryption/{kid}/wrapping-key → 201: the RSA public key to wrap the material of a pending customer-provided root key with. */
export const createWrappingKey: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'POST',
  url: '/keys/encryption/:kid/wrapping-key',
  config: { scopes: ['create:encryption_keys'] },
  schema: { params: EncryptionKeyParams, response: { 201: WrappingKey } },
  handler: async (request, reply) => reply.code(201).send(await keys.wrappingKey(request.tenant, request.params.kid)),
});
