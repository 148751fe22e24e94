import { GroupMemberService, type GroupMemberContext } from '../rbac/group-members.js';
import type { ManagementRoute } from '../route.js';
import { createGroup } from './create.js';
import { deleteGroup } from './delete.js';
import { getGroup } from './get.js';
import { listGroups } from './list.js';
import { addGroupMembers } from './members/create.js';
import { removeGroupMembers } from './members/delete.js';
import { listGroupMembers } from './members/list.js';
import { assignGroupRoles } from './roles/create.js';
import { deleteGroupRoles } from './roles/delete.js';
import { listGroupRoles } from './roles/list.js';
import { GroupService, type GroupServiceContext } from './service.js';

/** /api/v2/groups, /api/v2/groups/{id}/roles and /api/v2/groups/{id}/members */
export function groupRoutes(ctx: GroupServiceContext & GroupMemberContext): ManagementRoute[] {
  const groups = new GroupService(ctx);
  const rbac = new GroupMemberService(ctx);
  return [
    ...[listGroups, createGroup, getGroup, deleteGroup, listGroupRoles, assignGroupRoles, deleteGroupRoles].map((route) => route(ctx, groups)),
    ...[listGroupMembers, addGroupMembers, removeGroupMembers].map((route) => route(ctx, rbac)),
  ];
}
