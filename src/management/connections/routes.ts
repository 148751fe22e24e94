import type { ManagementRoute } from '../route.js';
import { listConnectionClients } from './clients/list.js';
import { listClientConnections } from './client-connections.js';
import { updateConnectionClients } from './clients/update.js';
import { createConnection } from './create.js';
import { deleteConnection } from './delete.js';
import { getConnection } from './get.js';
import { connectionStatus } from './status.js';
import { listConnections } from './list.js';
import { connectionKeyRoutes, type ConnectionKeysContext } from './keys.js';
import { ConnectionService, type ConnectionServiceContext } from './service.js';
import { updateConnection } from './update.js';

/** /api/v2/connections, /api/v2/connections/{id}/clients and …/keys, and /api/v2/clients/{id}/connections */
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
    listClientConnections,
    ...connectionKeyRoutes(ctx),
  ].map((route) => route(ctx, service));
}
