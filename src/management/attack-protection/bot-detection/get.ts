import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { BotDetectionResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** GET /api/v2/attack-protection/bot-detection */
export const getBotDetection: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'GET',
  url: '/attack-protection/bot-detection',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: BotDetectionResponse } },
  handler: async (request) => settings.get(request.tenant, 'bot_detection'),
});
