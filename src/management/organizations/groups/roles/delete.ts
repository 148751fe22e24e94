import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../../route.js';
import { DeleteGroupRolesBody, formRolesAsArray } from '../../../groups/roles/schema.js';
import { OrganizationGroupParams } from '../schema.js';
import type { OrganizationGroupService } from '../service.js';

/** DELETE /api/v2/organizations/{organization_id}/groups/{group_id}/roles → 204: the group's members lose the roles in that organization's next tokens. */
export const removeOrganizationGroupRoles: ManagementRouteFactory<OrganizationGroupService> = (_ctx, groups) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:organization_id/groups/:group_id/roles',
  config: { scopes: ['delete:organization_group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: OrganizationGroupParams, body: DeleteGroupRolesBody, response: { 204: NoContent } },
  preValidation: formRolesAsArray,
  handler: async (request, reply) => {
    await groups.removeRoles(request.tenant, request.params.organization_id, request.params.group_id, request.body.roles);
    return reply.code(204).send();
  },
});
