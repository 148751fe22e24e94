import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BulkRenderingBody, BulkRenderingResponse } from './schema.js';
import type { RenderingService } from './service.js';

/** PATCH /api/v2/prompts/rendering: several screens' render settings at once; every config is checked before any is written. */
export const bulkUpdateRendering: ManagementRouteFactory<RenderingService> = (_ctx, rendering) =>
  managementRoute({
    method: 'PATCH',
    url: '/prompts/rendering',
    config: { scopes: ['update:prompts'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: BulkRenderingBody, response: { 200: BulkRenderingResponse } },
    handler: async (request) => rendering.bulkUpdate(request.tenant, request.body.configs as unknown as ({ prompt: string; screen: string } & Record<string, unknown>)[]),
  });
