import type { ManagementRoute } from '../route.js';
import { deleteUserGrant } from './delete.js';
import { deleteUserGrantsByUserId } from './delete-by-user-id.js';
import { listUserGrants } from './list.js';
import { ConsentGrantService } from './service.js';
import type { AppContext } from '../../domain/context.js';

/** /api/v2/grants: users' consent grants (the service's `userGrants`). */
export function consentGrantRoutes(ctx: AppContext): ManagementRoute[] {
  const service = new ConsentGrantService(ctx);
  return [listUserGrants, deleteUserGrantsByUserId, deleteUserGrant].map((route) => route(ctx, service));
}
