import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { DirectoryProvisioningService } from '../service.js';
import { IdParams, ReplaceSynchronizedGroupsBody } from '../schema.js';

/** PUT /api/v2/connections/{id}/directory-provisioning/synchronized-groups → 204: the selection replaced (used when `synchronize_groups` is `selected`). */
export const replaceSynchronizedGroups: ManagementRouteFactory<DirectoryProvisioningService> = (_ctx, directory) => managementRoute({
  method: 'PUT',
  url: '/connections/:id/directory-provisioning/synchronized-groups',
  config: { scopes: ['update:directory_provisionings'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: ReplaceSynchronizedGroupsBody, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await directory.replaceGroups(request.tenant, request.params.id, request.body);
    return reply.code(204).send();
  },
});
