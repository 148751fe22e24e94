import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BruteForceBody, BruteForceResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** PATCH /api/v2/attack-protection/brute-force-protection: the members given replace the stored ones. */
export const updateBruteForce: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/attack-protection/brute-force-protection',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: BruteForceBody, response: { 200: BruteForceResponse } },
  handler: async (request) => settings.update(request.tenant, 'brute_force_protection', request.body),
});
