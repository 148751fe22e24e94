import type { ManagementRoute } from '../route.js';
import { getBranding } from './get.js';
import { BrandingService, type BrandingServiceContext } from './service.js';
import { updateBranding } from './update.js';

/** /api/v2/branding */
export function brandingRoutes(ctx: BrandingServiceContext): ManagementRoute[] {
  const branding = new BrandingService(ctx);
  return [getBranding, updateBranding].map((route) => route(ctx, branding));
}
