import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { PromptSettingsResponse, UpdatePromptSettingsBody } from './schema.js';
import type { PromptService } from './service.js';

/** PATCH /api/v2/prompts */
export const updatePromptSettings: ManagementRouteFactory<PromptService> = (_ctx, prompts) =>
  managementRoute({
    method: 'PATCH',
    url: '/prompts',
    config: { scopes: ['update:prompts'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: UpdatePromptSettingsBody, response: { 200: PromptSettingsResponse } },
    handler: async (request) => prompts.updateSettings(request.tenant, request.body),
  });
