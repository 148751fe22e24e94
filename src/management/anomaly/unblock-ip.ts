import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { IpParams } from './schema.js';
import type { AnomalyService } from './service.js';

/** DELETE /api/v2/anomaly/blocks/ips/{id} → 204: every block of the address lifted. */
export const unblockIp: ManagementRouteFactory<AnomalyService> = (_ctx, anomaly) => managementRoute({
  method: 'DELETE',
  url: '/anomaly/blocks/ips/:id',
  config: { scopes: ['delete:anomaly_blocks'] },
  schema: { params: IpParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await anomaly.unblock(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
