import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { CustomDomainParams } from './schema.js';
import type { CustomDomainService } from './service.js';

/** DELETE /api/v2/custom-domains/{id} → 204 */
export const deleteCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'DELETE',
  url: '/custom-domains/:id',
  config: { scopes: ['delete:custom_domains'] },
  schema: { params: CustomDomainParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await domains.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
