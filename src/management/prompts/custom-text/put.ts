import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CustomTextBody, CustomTextParams, CustomTextResponse } from '../schema.js';
import type { PromptService } from '../service.js';

/** PUT /api/v2/prompts/{prompt}/custom-text/{language}: replaces the prompt's texts in that language. */
export const setCustomText: ManagementRouteFactory<PromptService> = (_ctx, prompts) =>
  managementRoute({
    method: 'PUT',
    url: '/prompts/:prompt/custom-text/:language',
    config: { scopes: ['update:prompts'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: CustomTextParams, body: CustomTextBody, response: { 200: CustomTextResponse } },
    handler: async (request) => prompts.setCustomText(request.tenant, request.params.prompt, request.params.language, request.body),
  });
