import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianPushService } from '../service.js';
import { SelectedProviderBody, SelectedProviderResponse } from '../schema.js';

const url = '/guardian/factors/push-notification/selected-provider';

/** GET /api/v2/guardian/factors/push-notification/selected-provider → 200 `{provider}` (`guardian` until set). */
export const getSelectedProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'GET',
  url,
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: SelectedProviderResponse } },
  handler: async (request) => guardian.getSelectedProvider(request.tenant),
});

/** PUT …/selected-provider `{provider}` → 200 `{provider}`. */
export const setSelectedProvider: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'PUT',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SelectedProviderBody, response: { 200: SelectedProviderResponse } },
  handler: async (request) => guardian.setSelectedProvider(request.tenant, request.body.provider),
});
