import type { ManagementRoute } from '../route.js';
import { createResourceServer } from './create.js';
import { deleteResourceServer } from './delete.js';
import { getResourceServer } from './get.js';
import { listResourceServers } from './list.js';
import { ResourceServerService, type ResourceServerServiceContext } from './service.js';
import { updateResourceServer } from './update.js';

/** /api/v2/resource-servers */
export function resourceServerRoutes(ctx: ResourceServerServiceContext): ManagementRoute[] {
  const service = new ResourceServerService(ctx);
  return [listResourceServers, createResourceServer, getResourceServer, updateResourceServer, deleteResourceServer].map((route) =>
    route(ctx, service),
  );
}
