import type { AppContext } from '../../app/context.js';
import type { ManagementRoute } from '../route.js';
import { deleteUserGrant } from './delete.js';
import { deleteUserGrantsByUserId } from './delete-by-user-id.js';
import { listUserGrants } from './list.js';
import { UserGrantService } from './service.js';

/** /api/v2/grants: users' consent grants (the service's `userGrants`). */
export function userGrantRoutes(ctx: AppContext): ManagementRoute[] {
  const service = new UserGrantService(ctx);
  return [listUserGrants, deleteUserGrantsByUserId, deleteUserGrant].map((route) => route(ctx, service));
}
