import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SigningKeyResponse } from './schema.js';
import type { SigningKeyService } from './service.js';

/** GET /api/v2/keys/signing: every signing key of the tenant, revoked ones included. */
export const listSigningKeys: ManagementRouteFactory<SigningKeyService> = (_ctx, keys) => managementRoute({
  method: 'GET',
  url: '/keys/signing',
  config: { scopes: ['read:signing_keys'] },
  schema: { response: { 200: Type.Array(SigningKeyResponse) } },
  handler: async (request) => keys.list(request.tenant),
});
