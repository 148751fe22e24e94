import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { SupplementalSignals } from './schema.js';
import type { SupplementalSignalsService } from './service.js';

/** GET /api/v2/supplemental-signals */
export const getSupplementalSignals: ManagementRouteFactory<SupplementalSignalsService> = (_ctx, signals) => managementRoute({
  method: 'GET',
  url: '/supplemental-signals',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: SupplementalSignals } },
  handler: async (request) => signals.get(request.tenant),
});
