import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { PhoneTemplateIdParams } from './schema.js';
import type { PhoneTemplateService } from './service.js';

/** DELETE /api/v2/branding/phone/templates/{id} → 204; the type is listed with its default again. */
export const deletePhoneTemplate: ManagementRouteFactory<PhoneTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'DELETE',
    url: '/branding/phone/templates/:id',
    config: { scopes: ['delete:phone_templates'] },
    schema: { params: PhoneTemplateIdParams, response: { 204: NoContent } },
    handler: async (request, reply) => {
      await templates.delete(request.tenant, request.params.id);
      return reply.code(204).send();
    },
  });
