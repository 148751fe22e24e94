import { Type } from '@sinclair/typebox';
import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { StringEnum } from '../../../platform/http/schema-types.js';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 300, description: 'ID of the user to remove a multifactor configuration from.' }),
  provider: StringEnum(['duo', 'google-authenticator'] as const, { description: 'The multi-factor provider. Supported values \'duo\' or \'google-authenticator\'' }),
});

/**
 * DELETE /api/v2/users/{id}/multifactor/{provider} → 204: the user's
 * enrolments with the legacy provider (`google-authenticator`: the
 * authenticator app; `duo`: none, Gatehouse stores no Duo enrolment); 404 for an
 * unknown user.
 */
export const deleteMultifactorProvider: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/multifactor/:provider',
  config: { scopes: ['update:users'] },
  schema: { params: Params, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await mfa.deleteMultifactorProvider(request.tenant, request.params.id, request.params.provider);
    return reply.code(204).send();
  },
});
