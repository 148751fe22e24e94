import { RoleAccessService, type RoleAccessContext } from '../rbac/role-access.js';
import type { ManagementRoute } from '../route.js';
import { createRole } from './create.js';
import { deleteRole } from './delete.js';
import { getRole } from './get.js';
import { assignRoleGroups } from './groups/create.js';
import { deleteRoleGroups } from './groups/delete.js';
import { listRoleGroups } from './groups/list.js';
import { listRoles } from './list.js';
import { addRolePermissions } from './permissions/create.js';
import { deleteRolePermissions } from './permissions/delete.js';
import { listRolePermissions } from './permissions/list.js';
import { RoleService, type RoleServiceContext } from './service.js';
import { updateRole } from './update.js';
import { assignRoleUsers } from './users/create.js';
import { listRoleUsers } from './users/list.js';

/** /api/v2/roles, and a role's permissions, users and groups. */
export function roleRoutes(ctx: RoleServiceContext & RoleAccessContext): ManagementRoute[] {
  const roles = new RoleService(ctx);
  const rbac = new RoleAccessService(ctx);
  return [
    ...[listRoles, createRole, getRole, updateRole, deleteRole].map((route) => route(ctx, roles)),
    ...[
      listRolePermissions,
      addRolePermissions,
      deleteRolePermissions,
      listRoleUsers,
      assignRoleUsers,
      listRoleGroups,
      assignRoleGroups,
      deleteRoleGroups,
    ].map((route) => route(ctx, rbac)),
  ];
}
