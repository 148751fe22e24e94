import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PartialsParams, PartialsResponse } from './schema.js';
import type { PartialsService } from './service.js';

/** GET /api/v2/prompts/{prompt}/partials → screen → insertion point → partial; `{}` when the prompt has none. */
export const getPartials: ManagementRouteFactory<PartialsService> = (_ctx, partials) =>
  managementRoute({
    method: 'GET',
    url: '/prompts/:prompt/partials',
    config: { scopes: ['read:prompts'] },
    schema: { params: PartialsParams, response: { 200: PartialsResponse } },
    handler: async (request) => partials.get(request.tenant, request.params.prompt),
  });
