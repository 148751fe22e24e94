import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BreachedBody, BreachedResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** PATCH /api/v2/attack-protection/breached-password-detection: the members given replace the stored ones. */
export const updateBreached: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/attack-protection/breached-password-detection',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: BreachedBody, response: { 200: BreachedResponse } },
  handler: async (request) => settings.update(request.tenant, 'breached_password_detection', request.body),
});
