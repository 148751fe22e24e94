import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { BrandingResponse, UpdateBrandingBody } from './schema.js';
import type { BrandingService } from './service.js';

/** PATCH /api/v2/branding */
export const updateBranding: ManagementRouteFactory<BrandingService> = (_ctx, branding) =>
  managementRoute({
    method: 'PATCH',
    url: '/branding',
    config: { scopes: ['update:branding'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: UpdateBrandingBody, response: { 200: BrandingResponse } },
    handler: async (request) => branding.update(request.tenant, request.body),
  });
