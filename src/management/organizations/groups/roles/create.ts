import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../../route.js';
import { AssignGroupRolesBody, formRolesAsArray } from '../../../groups/roles/schema.js';
import { OrganizationGroupParams } from '../schema.js';
import type { OrganizationGroupService } from '../service.js';

/** POST /api/v2/organizations/{organization_id}/groups/{group_id}/roles → 204 (`CreateOrganizationGroupRolesRequestContent`: `{roles}`). */
export const assignOrganizationGroupRoles: ManagementRouteFactory<OrganizationGroupService> = (_ctx, groups) => managementRoute({
  method: 'POST',
  url: '/organizations/:organization_id/groups/:group_id/roles',
  config: { scopes: ['create:organization_group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: OrganizationGroupParams, body: AssignGroupRolesBody, response: { 204: NoContent } },
  preValidation: formRolesAsArray,
  handler: async (request, reply) => {
    await groups.assignRoles(request.tenant, request.params.organization_id, request.params.group_id, request.body.roles);
    return reply.code(204).send();
  },
});
