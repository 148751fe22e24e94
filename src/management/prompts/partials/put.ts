import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PartialsBody, PartialsParams, PartialsResponse } from './schema.js';
import type { PartialsService } from './service.js';

/** PUT /api/v2/prompts/{prompt}/partials: replaces the prompt's partials, answers them as stored. */
export const putPartials: ManagementRouteFactory<PartialsService> = (_ctx, partials) =>
  managementRoute({
    method: 'PUT',
    url: '/prompts/:prompt/partials',
    config: { scopes: ['update:prompts'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: PartialsParams, body: PartialsBody, response: { 200: PartialsResponse } },
    handler: async (request) => partials.put(request.tenant, request.params.prompt, request.body),
  });
