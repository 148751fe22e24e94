import type { ManagementRoute } from '../route.js';
import { deleteUserSessions } from '../users/sessions/delete.js';
import { listUserSessions } from '../users/sessions/list.js';
import { deleteSession } from './delete.js';
import { getSession } from './get.js';
import { revokeSession } from './revoke.js';
import { revokeUserAccess } from './revoke-access.js';
import { updateSession } from './update.js';
import { SessionService, type SessionServiceContext } from './service.js';

/** /api/v2/sessions/{id}, /api/v2/users/{user_id}/sessions and /api/v2/users/{id}/revoke-access */
export function sessionRoutes(ctx: SessionServiceContext): ManagementRoute[] {
  const sessions = new SessionService(ctx);
  return [getSession, updateSession, deleteSession, revokeSession, listUserSessions, deleteUserSessions, revokeUserAccess].map((route) => route(ctx, sessions));
}
