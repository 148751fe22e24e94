import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneTemplateList } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** GET /api/v2/branding/phone/templates → every type (`disabled` filters); a type the tenant has not created has no id. */
export const listPhoneTemplates: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'GET',
    url: '/branding/phone/templates',
    config: { scopes: ['read:phone_templates'] },
    schema: { querystring: Type.Object({ disabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), response: { 200: PhoneTemplateList } },
    handler: async (request) => templates.list(request.tenant, request.query.disabled),
  });
