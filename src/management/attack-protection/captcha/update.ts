import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CaptchaBody, CaptchaResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** PATCH /api/v2/attack-protection/captcha: a provider's member replaces its configuration; its secret is sealed and not answered. */
export const updateCaptcha: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/attack-protection/captcha',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CaptchaBody, response: { 200: CaptchaResponse } },
  handler: async (request) => settings.updateCaptcha(request.tenant, request.body),
});
