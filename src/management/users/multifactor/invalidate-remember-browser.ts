import { Type } from '@sinclair/typebox';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { UserMultifactorService } from './service.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false });

/** POST /api/v2/users/{id}/multifactor/actions/invalidate-remember-browser → 204: every browser remembered for the user asks for MFA again. */
export const invalidateRememberBrowser: ManagementRouteFactory<UserMultifactorService> = (_ctx, multifactor) => managementRoute({
  method: 'POST',
  url: '/users/:id/multifactor/actions/invalidate-remember-browser',
  config: { scopes: ['update:users'] },
  schema: { params: Params, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await multifactor.invalidateRememberBrowser(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
