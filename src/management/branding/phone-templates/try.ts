import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { TryBody } from '../phone-providers/schema.js';
import { PhoneTemplateIdParams, TryTemplateResponse } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** POST /api/v2/branding/phone/templates/{id}/try → 202: the template's text, with a sample code, sent through the tenant's provider. */
export const tryPhoneTemplate: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'POST',
    url: '/branding/phone/templates/:id/try',
    config: { scopes: ['create:phone_templates'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: PhoneTemplateIdParams, body: TryBody, response: { 202: TryTemplateResponse } },
    handler: async (request, reply) => reply.code(202).send(await templates.try(request.tenant, request.params.id, request.body)),
  });
