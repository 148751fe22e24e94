import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { RenderingParams, UpdateRenderingBody, UpdateRenderingResponse } from './schema.js';
import type { RenderingService } from './service.js';

/** PATCH /api/v2/prompts/{prompt}/screen/{screen}/rendering: a member given replaces the stored one, `null` puts back its default. */
export const updateRendering: ManagementRouteFactory<RenderingService> = (_ctx, rendering) =>
  managementRoute({
    method: 'PATCH',
    url: '/prompts/:prompt/screen/:screen/rendering',
    config: { scopes: ['update:prompts'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: RenderingParams, body: UpdateRenderingBody, response: { 200: UpdateRenderingResponse } },
    handler: async (request) => rendering.update(request.tenant, request.params.prompt, request.params.screen, request.body as Record<string, unknown>),
  });
