import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { TemplateListResponse } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** GET /api/v2/user-attribute-profiles/templates: the fixed list of ./templates.ts. */
export const listTemplates: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/user-attribute-profiles/templates',
  config: { scopes: ['read:user_attribute_profiles'] },
  schema: { response: { 200: TemplateListResponse } },
  handler: async () => profiles.templates(),
});
