import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, TemplateResponse } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** GET /api/v2/connection-profiles/templates/{id} */
export const getTemplate: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/connection-profiles/templates/:id',
  config: { scopes: ['read:connection_profiles'] },
  schema: { params: ProfileParams, response: { 200: TemplateResponse } },
  handler: async (request) => profiles.template(request.params.id),
});
