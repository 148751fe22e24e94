import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CustomTextParams, CustomTextResponse } from '../schema.js';
import type { SelfServiceProfileService } from '../service.js';

/** GET /api/v2/self-service-profiles/{id}/custom-text/{language}/{page}: the page's texts (`{}` when none). */
export const getSelfServiceProfileCustomText: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/self-service-profiles/:id/custom-text/:language/:page',
  config: { scopes: ['read:self_service_profile_custom_texts'] },
  schema: { params: CustomTextParams, response: { 200: CustomTextResponse } },
  handler: async (request) => profiles.customText(request.tenant, request.params.id, request.params.language, request.params.page),
});
