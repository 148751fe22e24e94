import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BotDetectionBody, BotDetectionResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** PATCH /api/v2/attack-protection/bot-detection: the members given replace the stored ones. */
export const updateBotDetection: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/attack-protection/bot-detection',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: BotDetectionBody, response: { 200: BotDetectionResponse } },
  handler: async (request) => settings.updateBotDetection(request.tenant, request.body),
});
