import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ListRenderingQuery, ListRenderingResponse } from './schema.js';
import type { RenderingService } from './service.js';

/** GET /api/v2/prompts/rendering: the screens that have render settings, offset paging, filtered by prompt, screen and mode. */
export const listRendering: ManagementRouteFactory<RenderingService> = (_ctx, rendering) =>
  managementRoute({
    method: 'GET',
    url: '/prompts/rendering',
    config: { scopes: ['read:prompts'] },
    schema: { querystring: ListRenderingQuery, response: { 200: ListRenderingResponse } },
    handler: async (request) => rendering.list(request.tenant, request.query),
  });
