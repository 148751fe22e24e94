import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SigningKeyParams, SigningKeyResponse } from './schema.js';
import type { SigningKeyService } from './service.js';

/** GET /api/v2/keys/signing/{kid} */
export const getSigningKey: ManagementRouteFactory<SigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'GET',
  url: '/keys/signing/:kid',
  config: { scopes: ['read:signing_keys'] },
  schema: { params: SigningKeyParams, response: { 200: SigningKeyResponse } },
  handler: async (request) => keys.get(request.tenant, request.params.kid),
});
