import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { SessionIdParams, SessionResponse } from './schema.js';
import type { SessionService } from './service.js';

/** GET /api/v2/sessions/{id}: an active session. */
export const getSession: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'GET',
  url: '/sessions/:id',
  config: { scopes: ['read:sessions'] },
  schema: { params: SessionIdParams, response: { 200: SessionResponse } },
  handler: async (request) => sessions.get(request.tenant, request.params.id),
});
