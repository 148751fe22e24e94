import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BreachedResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** GET /api/v2/attack-protection/breached-password-detection */
export const getBreached: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/attack-protection/breached-password-detection',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: BreachedResponse } },
  handler: async (request) => settings.get(request.tenant, 'breached_password_detection'),
});
