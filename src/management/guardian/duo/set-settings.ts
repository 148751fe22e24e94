import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { DuoSettingsBody, DuoSettingsResponse } from './schema.js';
import type { GuardianDuoService } from './service.js';

/** PUT /api/v2/guardian/factors/duo/settings: replaces the settings (the secret key sealed); 200 `{ikey, host}`. */
export const setDuoSettings: ManagementRouteFactory<GuardianDuoService> = (_ctx, duo) => managementRoute({
  method: 'PUT',
  url: '/guardian/factors/duo/settings',
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: DuoSettingsBody, response: { 200: DuoSettingsResponse } },
  handler: async (request) => duo.set(request.tenant, request.body),
});
