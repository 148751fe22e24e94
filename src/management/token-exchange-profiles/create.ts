import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateProfileBody, ProfileResponse } from './schema.js';
import type { TokenExchangeProfileService } from './service.js';

/** POST /api/v2/token-exchange-profiles → 201 */
export const createProfile: ManagementRouteFactory<TokenExchangeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'POST',
  url: '/token-exchange-profiles',
  config: { scopes: ['create:token_exchange_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateProfileBody, response: { 201: ProfileResponse } },
  handler: async (request, reply) => reply.code(201).send(await profiles.create(request.tenant, request.body)),
});
