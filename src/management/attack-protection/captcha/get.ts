import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CaptchaResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** GET /api/v2/attack-protection/captcha: the active provider and each provider's readable members (never a secret). */
export const getCaptcha: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/attack-protection/captcha',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: CaptchaResponse } },
  handler: async (request) => settings.getCaptcha(request.tenant),
});
