import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { TenantSettingsResponse, UpdateTenantSettingsBody } from './schema.js';
import type { TenantSettingsService } from './service.js';

/** PATCH /api/v2/tenants/settings */
export const updateTenantSettings: ManagementRouteFactory<TenantSettingsService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/tenants/settings',
  config: { scopes: ['update:tenant_settings'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: UpdateTenantSettingsBody, response: { 200: TenantSettingsResponse } },
  handler: async (request) => settings.update(request.tenant, request.body),
});
