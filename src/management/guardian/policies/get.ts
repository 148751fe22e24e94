import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { Policies } from '../mfa-schema.js';

/** GET /api/v2/guardian/policies → 200 the MFA policies (`[]`: none). */
export const getPolicies: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: '/guardian/policies',
  config: { scopes: ['read:mfa_policies'] },
  schema: { response: { 200: Policies } },
  handler: async (request) => mfa.policies(request.tenant),
});
