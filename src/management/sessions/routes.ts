import type { ManagementRoute } from '../route.js';
import { deleteUserSessions } from '../users/sessions/delete.js';
import { listUserSessions } from '../users/sessions/list.js';
import { deleteSession } from './delete.js';
import { getSession } from './get.js';
import { SessionService, type SessionServiceContext } from './service.js';

/** /api/v2/sessions/{id} and /api/v2/users/{user_id}/sessions */
export function sessionRoutes(ctx: SessionServiceContext): ManagementRoute[] {
  const sessions = new SessionService(ctx);
  return [getSession, deleteSession, listUserSessions, deleteUserSessions].map((route) => route(ctx, sessions));
}
