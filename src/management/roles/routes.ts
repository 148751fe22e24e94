import { RbacService } from '../rbac/service.js';
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
import { RoleService } from './service.js';
import { updateRole } from './update.js';
import { assignRoleUsers } from './users/create.js';
import { listRoleUsers } from './users/list.js';
import type { AppContext } from '../../domain/context.js';

/** /api/v2/roles, and a role's permissions, users and groups. */
export function roleRoutes(ctx: AppContext): ManagementRoute[] {
  const roles = new RoleService(ctx);
  const rbac = new RbacService(ctx);
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
