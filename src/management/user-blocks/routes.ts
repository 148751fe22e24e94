import type { AppContext } from '../../context.js';
import type { ManagementRoute } from '../route.js';
import { deleteUserBlocksByIdentifier } from './delete.js';
import { listUserBlocksByIdentifier } from './list.js';

/**
 * /api/v2/user-blocks (by identifier). The service behind the routes is the
 * brute-force protection itself (ctx.bruteForce), whose block index answers
 * them; /user-blocks/{id} (by user_id) is not implemented yet.
 */
export function userBlockRoutes(ctx: AppContext): ManagementRoute[] {
  return [listUserBlocksByIdentifier, deleteUserBlocksByIdentifier].map((route) => route(ctx, ctx.bruteForce));
}
