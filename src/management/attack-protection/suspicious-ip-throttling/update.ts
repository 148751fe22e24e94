import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { SuspiciousIpBody, SuspiciousIpResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** PATCH /api/v2/attack-protection/suspicious-ip-throttling: the members given replace the stored ones. */
export const updateSuspiciousIp: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/attack-protection/suspicious-ip-throttling',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SuspiciousIpBody, response: { 200: SuspiciousIpResponse } },
  handler: async (request) => settings.update(request.tenant, 'suspicious_ip_throttling', request.body),
});
