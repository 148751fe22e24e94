import type { AppContext } from '../../context.js';
import type { ManagementRoute } from '../route.js';
import { createRole } from './create.js';
import { deleteRole } from './delete.js';
import { getRole } from './get.js';
import { listRoles } from './list.js';
import { RoleService } from './service.js';
import { updateRole } from './update.js';

/** /api/v2/roles */
export function roleRoutes(ctx: AppContext): ManagementRoute[] {
  const service = new RoleService(ctx);
  return [listRoles, createRole, getRole, updateRole, deleteRole].map((route) => route(ctx, service));
}
