import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BruteForceResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** GET /api/v2/attack-protection/brute-force-protection */
export const getBruteForce: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/attack-protection/brute-force-protection',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: BruteForceResponse } },
  handler: async (request) => settings.get(request.tenant, 'brute_force_protection'),
});
