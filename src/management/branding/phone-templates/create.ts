import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CreatePhoneTemplateBody, PhoneTemplateResponse } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** POST /api/v2/branding/phone/templates → 201; 409 when the tenant has a template of that type. */
export const createPhoneTemplate: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'POST',
    url: '/branding/phone/templates',
    config: { scopes: ['create:phone_templates'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: CreatePhoneTemplateBody, response: { 201: PhoneTemplateResponse } },
    handler: async (request, reply) => reply.code(201).send(await templates.create(request.tenant, request.body)),
  });
