import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ThemeBodySchema, ThemeIdParams, ThemeResponse } from './schema.js';
import type { ThemeService } from './service.js';

/** PATCH /api/v2/branding/themes/{themeId}: the document requires every group, so the theme is replaced. */
export const updateTheme: ManagementRouteFactory<ThemeService> = (_ctx, themes) =>
  managementRoute({
    method: 'PATCH',
    url: '/branding/themes/:themeId',
    config: { scopes: ['update:branding'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: ThemeIdParams, body: ThemeBodySchema, response: { 200: ThemeResponse } },
    handler: async (request) => themes.update(request.tenant, request.params.themeId, request.body),
  });
