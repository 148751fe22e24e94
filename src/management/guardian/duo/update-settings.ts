import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { DuoSettingsBody, DuoSettingsResponse } from './schema.js';
import type { GuardianDuoService } from './service.js';

/** PATCH /api/v2/guardian/factors/duo/settings: the members given replaced; 200 `{ikey, host}`. */
export const updateDuoSettings: ManagementRouteFactory<GuardianDuoService> = (_ctx, duo) => managementRoute({
  method: 'PATCH',
  url: '/guardian/factors/duo/settings',
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: DuoSettingsBody, response: { 200: DuoSettingsResponse } },
  handler: async (request) => duo.update(request.tenant, request.body),
});
