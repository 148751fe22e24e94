import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { GetRenderingResponse, RenderingParams } from './schema.js';
import type { RenderingService } from './service.js';

/** GET /api/v2/prompts/{prompt}/screen/{screen}/rendering: the screen's render settings (the defaults when none were set). */
export const getRendering: ManagementRouteFactory<RenderingService> = (_ctx, rendering) =>
  managementRoute({
    method: 'GET',
    url: '/prompts/:prompt/screen/:screen/rendering',
    config: { scopes: ['read:prompts'] },
    schema: { params: RenderingParams, response: { 200: GetRenderingResponse } },
    handler: async (request) => rendering.get(request.tenant, request.params.prompt, request.params.screen),
  });
