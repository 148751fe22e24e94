import type { ManagementRoute } from '../route.js';
import { getBranding } from './get.js';
import { BrandingService } from './service.js';
import { themeRoutes } from './themes/routes.js';
import { updateBranding } from './update.js';
import type { UiSettingsContext } from '../../domain/branding/service.js';

/** /api/v2/branding and its themes */
export function brandingRoutes(ctx: UiSettingsContext): ManagementRoute[] {
  const branding = new BrandingService(ctx);
  return [...[getBranding, updateBranding].map((route) => route(ctx, branding)), ...themeRoutes(ctx)];
}
