import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { coerceFormBooleans } from '../form.js';
import type { GuardianPushService } from '../service.js';
import { ApnsBody, ApnsProviderResponse, ApnsUpdateResponse } from '../schema.js';

const url = '/guardian/factors/push-notification/providers/apns';

/** GET /api/v2/guardian/factors/push-notification/providers/apns → 200; never the p12. */
export const getApnsProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'GET',
  url,
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: ApnsProviderResponse } },
  handler: async (request) => guardian.getApns(request.tenant),
});

/** PUT …/providers/apns → 200 `{sandbox, bundle_id}`; replaces the configuration. */
export const setApnsProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'PUT',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: ApnsBody, response: { 200: ApnsUpdateResponse } },
  preValidation: coerceFormBooleans(ApnsBody),
  handler: async (request) => guardian.putApns(request.tenant, request.body),
});

/** PATCH …/providers/apns → 200 `{sandbox, bundle_id}`; changes the members given. */
export const updateApnsProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'PATCH',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: ApnsBody, response: { 200: ApnsUpdateResponse } },
  preValidation: coerceFormBooleans(ApnsBody),
  handler: async (request) => guardian.patchApns(request.tenant, request.body),
});
