import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ThemeIdParams, ThemeResponse } from './schema.js';
import type { ThemeService } from './service.js';

/** GET /api/v2/branding/themes/{themeId} */
export const getTheme: ManagementRouteFactory<ThemeService> = (_ctx, themes) =>
  managementRoute({
    method: 'GET',
    url: '/branding/themes/:themeId',
    config: { scopes: ['read:branding'] },
    schema: { params: ThemeIdParams, response: { 200: ThemeResponse } },
    handler: async (request) => themes.get(request.tenant, request.params.themeId),
  });
