import type { AppContext } from '../../context.js';
import type { ManagementRoute } from '../route.js';
import { createGroup } from './create.js';
import { deleteGroup } from './delete.js';
import { getGroup } from './get.js';
import { listGroups } from './list.js';
import { assignGroupRoles } from './roles/create.js';
import { deleteGroupRoles } from './roles/delete.js';
import { listGroupRoles } from './roles/list.js';
import { GroupService } from './service.js';

/** /api/v2/groups and /api/v2/groups/{id}/roles */
export function groupRoutes(ctx: AppContext): ManagementRoute[] {
  const service = new GroupService(ctx);
  return [listGroups, createGroup, getGroup, deleteGroup, listGroupRoles, assignGroupRoles, deleteGroupRoles].map((route) =>
    route(ctx, service),
  );
}
