import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { coerceFormBooleans } from '../form.js';
import type { GuardianPushService } from '../service.js';
import { FactorBody, FactorResponse } from '../schema.js';

/**
 * PUT /api/v2/guardian/factors/push-notification `{enabled}` → 200 `{enabled}`.
 * The OpenAPI document has this as `PUT /guardian/factors/{name}`; only the
 * push-notification factor is stored so far, so the path is registered as is.
 */
export const setPushNotificationFactor: ManagementRouteFactory<GuardianPushService> = (_ctx, guardian) => managementRoute({
  method: 'PUT',
  url: '/guardian/factors/push-notification',
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: FactorBody, response: { 200: FactorResponse } },
  preValidation: coerceFormBooleans(FactorBody),
  handler: async (request) => guardian.setEnabled(request.tenant, request.body.enabled),
});
