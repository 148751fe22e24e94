import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CreateEncryptionKeyBody, EncryptionKey } from './schema.js';
import type { EncryptionKeyService } from './service.js';

/** POST /api/v2/keys/encryption → 201: a customer-provided root key awaiting its material (one per tenant, else 409). */
export const createEncryptionKey: ManagementRouteFactory<EncryptionKeyService> = (_ctx, keys) => managementRoute({
  method: 'POST',
  url: '/keys/encryption',
  config: { scopes: ['create:encryption_keys'] },
  schema: { body: CreateEncryptionKeyBody, response: { 201: EncryptionKey } },
  handler: async (request, reply) => reply.code(201).send(await keys.create(request.tenant, request.body)),
});
