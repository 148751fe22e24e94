import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { LogStreamParams } from './schema.js';
import type { LogStreamService } from './service.js';

/** DELETE /api/v2/log-streams/{id} → 204 */
export const deleteLogStream: ManagementRouteFactory<LogStreamService> = (_ctx, streams) => managementRoute({
  method: 'DELETE',
  url: '/log-streams/:id',
  config: { scopes: ['delete:log_streams'] },
  schema: { params: LogStreamParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await streams.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
