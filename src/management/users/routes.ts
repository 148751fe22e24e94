import type { AppContext } from '../../context.js';
import type { ManagementRoute } from '../route.js';
import { listUsersByEmail } from '../users-by-email/list.js';
import { createUser } from './create.js';
import { deleteUser } from './delete.js';
import { getUser } from './get.js';
import { listUsers } from './list.js';
import { UserService } from './service.js';
import { updateUser } from './update.js';

/** /api/v2/users and /api/v2/users-by-email */
export function userRoutes(ctx: AppContext): ManagementRoute[] {
  const service = new UserService(ctx);
  return [listUsers, createUser, getUser, updateUser, deleteUser, listUsersByEmail].map((route) => route(ctx, service));
}
