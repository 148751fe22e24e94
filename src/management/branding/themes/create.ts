import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ThemeBodySchema, ThemeResponse } from './schema.js';
import type { ThemeService } from './service.js';

/** POST /api/v2/branding/themes → 200 with the theme (the document's status); 409 when the tenant has one. */
export const createTheme: ManagementRouteFactory<ThemeService> = (_ctx, themes) =>
  managementRoute({
    method: 'POST',
    url: '/branding/themes',
    config: { scopes: ['update:branding'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: ThemeBodySchema, response: { 200: ThemeResponse } },
    handler: async (request) => themes.create(request.tenant, request.body),
  });
