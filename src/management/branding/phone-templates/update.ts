import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneTemplateIdParams, PhoneTemplateResponse, UpdatePhoneTemplateBody } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** PATCH /api/v2/branding/phone/templates/{id}: `disabled`, `content.from` and `content.body` members merged. */
export const updatePhoneTemplate: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'PATCH',
    url: '/branding/phone/templates/:id',
    config: { scopes: ['update:phone_templates'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: PhoneTemplateIdParams, body: UpdatePhoneTemplateBody, response: { 200: PhoneTemplateResponse } },
    handler: async (request) => templates.update(request.tenant, request.params.id, request.body),
  });
