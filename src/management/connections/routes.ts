import type { ManagementRoute } from '../route.js';
import { listConnectionClients } from './clients/list.js';
import { updateConnectionClients } from './clients/update.js';
import { createConnection } from './create.js';
import { deleteConnection } from './delete.js';
import { getConnection } from './get.js';
import { connectionStatus } from './status.js';
import { listConnections } from './list.js';
import { ConnectionService, type ConnectionServiceContext } from './service.js';
import { updateConnection } from './update.js';

/** /api/v2/connections and /api/v2/connections/{id}/clients */
export function connectionRoutes(ctx: ConnectionServiceContext): ManagementRoute[] {
  const service = new ConnectionService(ctx);
  return [
    listConnections,
    createConnection,
    getConnection,
    connectionStatus,
    updateConnection,
    deleteConnection,
    listConnectionClients,
    updateConnectionClients,
  ].map((route) => route(ctx, service));
}
