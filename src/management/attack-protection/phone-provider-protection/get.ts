import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderProtectionResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** GET /api/v2/attack-protection/phone-provider-protection */
export const getPhoneProviderProtection: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/attack-protection/phone-provider-protection',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: PhoneProviderProtectionResponse } },
  handler: async (request) => settings.get(request.tenant, 'phone_provider_protection'),
});
