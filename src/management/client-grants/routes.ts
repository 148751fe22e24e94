import type { ManagementRoute } from '../route.js';
import { createClientGrant } from './create.js';
import { deleteClientGrant } from './delete.js';
import { getClientGrant } from './get.js';
import { listClientGrants } from './list.js';
import { listClientGrantOrganizations, type ClientGrantOrganizationsContext } from './organizations.js';
import { ClientGrantService, type ClientGrantServiceContext } from './service.js';
import { updateClientGrant } from './update.js';

/** /api/v2/client-grants */
export function clientGrantRoutes(ctx: ClientGrantServiceContext & ClientGrantOrganizationsContext): ManagementRoute[] {
  const service = new ClientGrantService(ctx);
  return [
    ...[listClientGrants, createClientGrant, getClientGrant, updateClientGrant, deleteClientGrant].map((route) => route(ctx, service)),
    listClientGrantOrganizations(ctx, undefined),
  ];
}
