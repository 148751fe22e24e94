import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SigningKeyIdentity, SigningKeyParams } from './schema.js';
import type { SigningKeyService } from './service.js';

/** PUT /api/v2/keys/signing/{kid}/revoke */
export const revokeSigningKey: ManagementRouteFactory<SigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'PUT',
  url: '/keys/signing/:kid/revoke',
  config: { scopes: ['update:signing_keys'] },
  schema: { params: SigningKeyParams, response: { 200: SigningKeyIdentity } },
  handler: async (request) => keys.revoke(request.tenant, request.params.kid),
});
