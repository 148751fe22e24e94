import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { SessionIdParams, SessionResponse, UpdateSessionBody } from './schema.js';
import type { SessionService } from './service.js';

/** PATCH /api/v2/sessions/{id}: sets an active session's `session_metadata`. */
export const updateSession: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'PATCH',
  url: '/sessions/:id',
  config: { scopes: ['update:sessions'] },
  schema: { params: SessionIdParams, body: UpdateSessionBody, response: { 200: SessionResponse } },
  handler: async (request) => sessions.update(request.tenant, request.params.id, request.body.session_metadata),
});
