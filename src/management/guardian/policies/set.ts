import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { Policies } from '../mfa-schema.js';

/** PUT /api/v2/guardian/policies `["all-applications"]` → 200 the policies; `[]` turns MFA off. */
export const setPolicies: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url: '/guardian/policies',
  config: { scopes: ['update:mfa_policies'] },
  schema: { consumes: ['application/json'], body: Policies, response: { 200: Policies } },
  handler: async (request) => mfa.setPolicies(request.tenant, request.body),
});
