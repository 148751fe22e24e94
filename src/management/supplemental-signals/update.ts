import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { SupplementalSignals, UpdateSupplementalSignalsBody } from './schema.js';
import type { SupplementalSignalsService } from './service.js';

/** PATCH /api/v2/supplemental-signals: `akamai_enabled` turns the reading of the Akamai headers on or off. */
export const updateSupplementalSignals: ManagementRouteFactory<SupplementalSignalsService> = (_ctx, signals) => managementRoute({
  method: 'PATCH',
  url: '/supplemental-signals',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: UpdateSupplementalSignalsBody, response: { 200: SupplementalSignals } },
  handler: async (request) => signals.update(request.tenant, request.body.akamai_enabled),
});
