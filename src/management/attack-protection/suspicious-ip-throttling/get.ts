import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SuspiciousIpResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** GET /api/v2/attack-protection/suspicious-ip-throttling */
export const getSuspiciousIp: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/attack-protection/suspicious-ip-throttling',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: SuspiciousIpResponse } },
  handler: async (request) => settings.get(request.tenant, 'suspicious_ip_throttling'),
});
