import type { ManagementRoute } from '../route.js';
import { deleteUserBlocksByIdentifier } from './delete.js';
import { deleteUserBlocks } from './delete-by-id.js';
import { listUserBlocks } from './get.js';
import { listUserBlocksByIdentifier } from './list.js';
import { UserBlockService, type UserBlockServiceContext } from './service.js';

/**
 * /api/v2/user-blocks: by identifier (`?identifier=`) and by user_id
 * (`/{id}`), answered from the brute-force protection's block index.
 */
export function userBlockRoutes(ctx: UserBlockServiceContext): ManagementRoute[] {
  const service = new UserBlockService(ctx);
  return [listUserBlocksByIdentifier, deleteUserBlocksByIdentifier, listUserBlocks, deleteUserBlocks].map((route) => route(ctx, service));
}
