import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CustomSigningKeys } from './schema.js';
import type { CustomSigningKeyService } from './service.js';

/** GET /api/v2/keys/custom-signing: the tenant's custom public keys; 404 before any are set. */
export const getCustomSigningKeys: ManagementRouteFactory<CustomSigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'GET',
  url: '/keys/custom-signing',
  config: { scopes: ['read:custom_signing_keys'] },
  schema: { response: { 200: CustomSigningKeys } },
  handler: async (request) => keys.get(request.tenant),
});
