import type { ManagementRoute } from '../../route.js';
import { getTenantSettings } from './get.js';
import { TenantSettingsService, type TenantSettingsServiceContext } from './service.js';
import { updateTenantSettings } from './update.js';

/** /api/v2/tenants/settings */
export function tenantSettingsRoutes(ctx: TenantSettingsServiceContext): ManagementRoute[] {
  const settings = new TenantSettingsService(ctx);
  return [getTenantSettings, updateTenantSettings].map((route) => route(ctx, settings));
}
