import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CustomTextParams, CustomTextResponse } from '../schema.js';
import type { PromptService } from '../service.js';

/** GET /api/v2/prompts/{prompt}/custom-text/{language} */
export const getCustomText: ManagementRouteFactory<PromptService> = (_ctx, prompts) =>
  managementRoute({
    method: 'GET',
    url: '/prompts/:prompt/custom-text/:language',
    config: { scopes: ['read:prompts'] },
    schema: { params: CustomTextParams, response: { 200: CustomTextResponse } },
    handler: async (request) => prompts.customText(request.tenant, request.params.prompt, request.params.language),
  });
