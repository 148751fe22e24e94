import type { ManagementRoute } from '../../route.js';
import type { AppContext } from '../../../domain/context.js';
import { getTenantSettings } from './get.js';
import { TenantSettingsService } from './service.js';
import { updateTenantSettings } from './update.js';

/** /api/v2/tenants/settings */
export function tenantSettingsRoutes(ctx: AppContext): ManagementRoute[] {
  const settings = new TenantSettingsService(ctx);
  return [getTenantSettings, updateTenantSettings].map((route) => route(ctx, settings));
}
