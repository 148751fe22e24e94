import type { ManagementRoute } from '../route.js';
import { deleteUserGrant } from './delete.js';
import { deleteUserGrantsByUserId } from './delete-by-user-id.js';
import { listUserGrants } from './list.js';
import { ConsentGrantService, type GrantServiceContext } from './service.js';

/** /api/v2/grants: users' consent grants (the service's `userGrants`). */
export function consentGrantRoutes(ctx: GrantServiceContext): ManagementRoute[] {
  const service = new ConsentGrantService(ctx);
  return [listUserGrants, deleteUserGrantsByUserId, deleteUserGrant].map((route) => route(ctx, service));
}
