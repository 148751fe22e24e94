import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, TemplateResponse } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** GET /api/v2/user-attribute-profiles/templates/{id} */
export const getTemplate: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/user-attribute-profiles/templates/:id',
  config: { scopes: ['read:user_attribute_profiles'] },
  schema: { params: ProfileParams, response: { 200: TemplateResponse } },
  handler: async (request) => profiles.template(request.params.id),
});
