import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ThemeResponse } from './schema.js';
import type { ThemeService } from './service.js';

/** GET /api/v2/branding/themes/default → the tenant's theme; 404 when it has none (what auth0-deploy-cli reads as "no theme"). */
export const getDefaultTheme: ManagementRouteFactory<ThemeService> = (_ctx, themes) =>
  managementRoute({
    method: 'GET',
    url: '/branding/themes/default',
    config: { scopes: ['read:branding'] },
    schema: { response: { 200: ThemeResponse } },
    handler: async (request) => themes.getDefault(request.tenant),
  });
