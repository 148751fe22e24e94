import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { FactorList } from '../mfa-schema.js';

/** GET /api/v2/guardian/factors → 200 every factor `{enabled, trial_expired, name}`; unsupported ones always disabled. */
export const listFactors: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: '/guardian/factors',
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: FactorList } },
  handler: async (request) => mfa.listFactors(request.tenant),
});
