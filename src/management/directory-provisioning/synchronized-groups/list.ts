import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { DirectoryProvisioningService } from '../service.js';
import { IdParams, SynchronizedGroupsQuery, SynchronizedGroupsResponse } from '../schema.js';

/** GET /api/v2/connections/{id}/directory-provisioning/synchronized-groups → `{groups, next?}`, checkpoint paging by group id. */
export const listSynchronizedGroups: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'GET',
  url: '/connections/:id/directory-provisioning/synchronized-groups',
  config: { scopes: ['read:directory_provisionings'] },
  schema: { params: IdParams, querystring: SynchronizedGroupsQuery, response: { 200: SynchronizedGroupsResponse } },
  handler: async (request) => directory.listGroups(request.tenant, request.params.id, request.query),
});
