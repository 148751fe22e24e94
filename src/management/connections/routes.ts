import type { ManagementRoute } from '../route.js';
import { listConnectionClients } from './clients/list.js';
import { updateConnectionClients } from './clients/update.js';
import { createConnection } from './create.js';
import { deleteConnection } from './delete.js';
import { getConnection } from './get.js';
import { connectionStatus } from './status.js';
import { listConnections } from './list.js';
import { connectionKeyRoutes, type ConnectionKeysContext } from './keys.js';
import { ConnectionService, type ConnectionServiceContext } from './service.js';
import { updateConnection } from './update.js';

/** /api/v2/connections, /api/v2/connections/{id}/clients and /api/v2/connections/{id}/keys */
export function connectionRoutes(ctx: ConnectionServiceContext & ConnectionKeysContext): ManagementRoute[] {
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
    ...connectionKeyRoutes(ctx),
  ].map((route) => route(ctx, service));
}
