import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianPushService } from '../service.js';
import { SnsBody, SnsProviderResponse, SnsUpdateResponse } from '../schema.js';

const url = '/guardian/factors/push-notification/providers/sns';

/** GET /api/v2/guardian/factors/push-notification/providers/sns → 200; never the secret key. */
export const getSnsProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'GET',
  url,
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: SnsProviderResponse } },
  handler: async (request) => guardian.getSns(request.tenant),
});

/** PUT …/providers/sns → 200 echoing the body; replaces the configuration. */
export const setSnsProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'PUT',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SnsBody, response: { 200: SnsUpdateResponse } },
  handler: async (request) => guardian.putSns(request.tenant, request.body),
});

/** PATCH …/providers/sns → 200 with the configuration after the change; changes the members given. */
export const updateSnsProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'PATCH',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SnsBody, response: { 200: SnsUpdateResponse } },
  handler: async (request) => guardian.patchSns(request.tenant, request.body),
});
