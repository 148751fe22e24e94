import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SigningKeyIdentity } from './schema.js';
import type { SigningKeyService } from './service.js';

/** POST /api/v2/keys/signing/rotate: 201 with the new next key; the token needs both scopes (the service's document). */
export const rotateSigningKeys: ManagementRouteFactory<SigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'POST',
  url: '/keys/signing/rotate',
  config: { scopes: ['create:signing_keys', 'update:signing_keys'], allScopes: true },
  schema: { response: { 201: SigningKeyIdentity } },
  handler: async (request, reply) => reply.code(201).send(await keys.rotate(request.tenant)),
});
