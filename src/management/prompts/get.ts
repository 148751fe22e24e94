import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { PromptSettingsResponse } from './schema.js';
import type { PromptService } from './service.js';

/** GET /api/v2/prompts */
export const getPromptSettings: ManagementRouteFactory<PromptService> = (_ctx, prompts) =>
  managementRoute({
    method: 'GET',
    url: '/prompts',
    config: { scopes: ['read:prompts'] },
    schema: { response: { 200: PromptSettingsResponse } },
    handler: async (request) => prompts.settings(request.tenant),
  });
