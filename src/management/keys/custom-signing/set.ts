import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CustomSigningKeys, SetCustomSigningKeysBody } from './schema.js';
import type { CustomSigningKeyService } from './service.js';

/** PUT /api/v2/keys/custom-signing: the whole JWKS created or replaced; the token needs both scopes (the service's document). */
export const setCustomSigningKeys: ManagementRouteFactory<CustomSigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'PUT',
  url: '/keys/custom-signing',
  config: { scopes: ['create:custom_signing_keys', 'update:custom_signing_keys'], allScopes: true },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SetCustomSigningKeysBody, response: { 200: CustomSigningKeys } },
  handler: async (request) => keys.set(request.tenant, request.body),
});
