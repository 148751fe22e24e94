import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { BrandingResponse } from './schema.js';
import type { BrandingService } from './service.js';

/** GET /api/v2/branding */
export const getBranding: ManagementRouteFactory<BrandingService> = (_ctx, branding) =>
  managementRoute({
    method: 'GET',
    url: '/branding',
    config: { scopes: ['read:branding'] },
    schema: { response: { 200: BrandingResponse } },
    handler: async (request) => branding.get(request.tenant),
  });
