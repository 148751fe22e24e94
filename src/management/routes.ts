/**
 * The Management API route table: every operation, registered from this one
 * list so it can be read and grepped in one place.
 */
import type { AppContext } from '../context.js';
import { createClientGrant } from './client-grants/create.js';
import { deleteClientGrant } from './client-grants/delete.js';
import { getClientGrant } from './client-grants/get.js';
import { listClientGrants } from './client-grants/list.js';
import { ClientGrantService } from './client-grants/service.js';
import { updateClientGrant } from './client-grants/update.js';
import { createResourceServer } from './resource-servers/create.js';
import { deleteResourceServer } from './resource-servers/delete.js';
import { getResourceServer } from './resource-servers/get.js';
import { listResourceServers } from './resource-servers/list.js';
import { ResourceServerService } from './resource-servers/service.js';
import { updateResourceServer } from './resource-servers/update.js';
import type { ManagementRoute, ManagementRouteFactory, ManagementServices } from './route.js';

const ROUTES: readonly ManagementRouteFactory[] = [
  listResourceServers,
  createResourceServer,
  getResourceServer,
  updateResourceServer,
  deleteResourceServer,
  listClientGrants,
  createClientGrant,
  getClientGrant,
  updateClientGrant,
  deleteClientGrant,
];

export function managementRoutes(ctx: AppContext): ManagementRoute[] {
  const services: ManagementServices = {
    resourceServers: new ResourceServerService(ctx),
    clientGrants: new ClientGrantService(ctx),
  };
  return ROUTES.map((route) => route(ctx, services));
}
