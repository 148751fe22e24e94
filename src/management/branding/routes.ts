import type { AppContext } from '../../domain/context.js';
import type { ManagementRoute } from '../route.js';
import { getBranding } from './get.js';
import { BrandingService } from './service.js';
import { updateBranding } from './update.js';

/** /api/v2/branding */
export function brandingRoutes(ctx: AppContext): ManagementRoute[] {
  const branding = new BrandingService(ctx);
  return [getBranding, updateBranding].map((route) => route(ctx, branding));
}
