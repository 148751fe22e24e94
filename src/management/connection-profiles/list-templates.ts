import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { TemplateListResponse } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** GET /api/v2/connection-profiles/templates: the fixed list of ./templates.ts. */
export const listTemplates: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/connection-profiles/templates',
  config: { scopes: ['read:connection_profiles'] },
  schema: { response: { 200: TemplateListResponse } },
  handler: async () => profiles.templates(),
});
