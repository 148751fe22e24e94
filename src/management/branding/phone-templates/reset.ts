import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneTemplateIdParams, PhoneTemplateResponse } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** PATCH /api/v2/branding/phone/templates/{id}/reset: the type's default content back (the document's body is empty). */
export const resetPhoneTemplate: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'PATCH',
    url: '/branding/phone/templates/:id/reset',
    config: { scopes: ['update:phone_templates'] },
    schema: { params: PhoneTemplateIdParams, response: { 200: PhoneTemplateResponse } },
    handler: async (request) => templates.reset(request.tenant, request.params.id),
  });
