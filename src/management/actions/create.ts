import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionResponse, CreateActionBody } from './schema.js';
import type { ActionService } from './service.js';

/** POST /api/v2/actions/actions → 201: a new draft (built at once without dependencies), deployed too with `deploy: true`. */
export const createAction: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'POST',
  url: '/actions/actions',
  config: { scopes: ['create:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateActionBody, response: { 201: ActionResponse } },
  handler: async (request, reply) => reply.code(201).send(await actions.create(request.tenant, request.body)),
});
