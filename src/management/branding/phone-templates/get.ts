import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneTemplateIdParams, PhoneTemplateResponse } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** GET /api/v2/branding/phone/templates/{id} */
export const getPhoneTemplate: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'GET',
    url: '/branding/phone/templates/:id',
    config: { scopes: ['read:phone_templates'] },
    schema: { params: PhoneTemplateIdParams, response: { 200: PhoneTemplateResponse } },
    handler: async (request) => templates.get(request.tenant, request.params.id),
  });
