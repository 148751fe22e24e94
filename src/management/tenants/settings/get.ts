import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { TenantSettingsQuery, TenantSettingsResponse } from './schema.js';
import type { TenantSettingsService } from './service.js';

/** GET /api/v2/tenants/settings */
export const getTenantSettings: ManagementRouteFactory<TenantSettingsService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/tenants/settings',
  config: { scopes: ['read:tenant_settings'] },
  schema: { querystring: TenantSettingsQuery, response: { 200: TenantSettingsResponse } },
  handler: async (request) => settings.get(request.tenant, request.query),
});
