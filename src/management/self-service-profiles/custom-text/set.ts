import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CustomTextBody, CustomTextParams, CustomTextResponse } from '../schema.js';
import type { SelfServiceProfileService } from '../service.js';

/** PUT /api/v2/self-service-profiles/{id}/custom-text/{language}/{page}: replaces the page's texts. */
export const setSelfServiceProfileCustomText: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'PUT',
  url: '/self-service-profiles/:id/custom-text/:language/:page',
  config: { scopes: ['update:self_service_profile_custom_texts'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: CustomTextParams, body: CustomTextBody, response: { 200: CustomTextResponse } },
  handler: async (request) => profiles.setCustomText(request.tenant, request.params.id, request.params.language, request.params.page, request.body),
});
