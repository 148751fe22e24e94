import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { Blocked, IpParams } from './schema.js';
import type { AnomalyService } from './service.js';

/** GET /api/v2/anomaly/blocks/ips/{id}: 200 while the address is blocked, 404 otherwise. */
export const checkBlockedIp: ManagementRouteFactory<AnomalyService> = (_ctx, anomaly) => managementRoute({
  method: 'GET',
  url: '/anomaly/blocks/ips/:id',
  config: { scopes: ['read:anomaly_blocks'] },
  schema: { params: IpParams, response: { 200: Blocked } },
  handler: async (request, reply) => {
    await anomaly.check(request.tenant, request.params.id);
    return reply.code(200).send();
  },
});
