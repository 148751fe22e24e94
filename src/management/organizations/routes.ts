import type { ManagementRoute } from '../route.js';
import { createOrganizationClientGrant } from './client-grants/create.js';
import { deleteOrganizationClientGrant } from './client-grants/delete.js';
import { listOrganizationClientGrants } from './client-grants/list.js';
import { OrganizationClientGrantService } from './client-grants/service.js';
import { createOrganization } from './create.js';
import { deleteOrganization } from './delete.js';
import { getOrganization } from './get.js';
import { listOrganizations } from './list.js';
import { OrganizationService } from './service.js';
import { updateOrganization } from './update.js';
import type { AppContext } from '../../domain/context.js';

/** /api/v2/organizations and /api/v2/organizations/{id}/client-grants */
export function organizationRoutes(ctx: AppContext): ManagementRoute[] {
  const store = ctx.stores.organizations;
  const organizations = new OrganizationService(ctx, store);
  const clientGrants = new OrganizationClientGrantService(ctx, store);
  const organizationOperations = [listOrganizations, createOrganization, getOrganization, updateOrganization, deleteOrganization];
  const clientGrantOperations = [listOrganizationClientGrants, createOrganizationClientGrant, deleteOrganizationClientGrant];
  return [
    ...organizationOperations.map((route) => route(ctx, organizations)),
    ...clientGrantOperations.map((route) => route(ctx, clientGrants)),
  ];
}
