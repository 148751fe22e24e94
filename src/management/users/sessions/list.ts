import { Type } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SessionResponse, UserIdParams } from '../../sessions/schema.js';
import type { SessionService } from '../../sessions/service.js';

const Query = Type.Object({ ...CheckpointQuery, include_totals: Type.Optional(Type.Boolean()) }, { additionalProperties: true });

/** GET /api/v2/users/{user_id}/sessions → `{sessions, next?}`: the user's active sessions, checkpoint paging. */
export const listUserSessions: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'GET',
  url: '/users/:user_id/sessions',
  config: { scopes: ['read:sessions'] },
  schema: { params: UserIdParams, querystring: Query, response: { 200: checkpointListResponse('sessions', SessionResponse) } },
  handler: async (request) => sessions.listForUser(request.tenant, request.params.user_id, request.query),
});
