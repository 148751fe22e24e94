import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { DuoSettingsResponse } from './schema.js';
import type { GuardianDuoService } from './service.js';

/** GET /api/v2/guardian/factors/duo/settings → 200 `{ikey, host}` as set; never the secret key. */
export const getDuoSettings: ManagementRouteFactory<GuardianDuoService> = (_ctx, duo) => managementRoute({
  method: 'GET',
  url: '/guardian/factors/duo/settings',
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: DuoSettingsResponse } },
  handler: async (request) => duo.get(request.tenant),
});
