import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { coerceFormBooleans } from '../form.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { FactorParams } from '../mfa-schema.js';
import { FactorBody, FactorResponse } from '../schema.js';

/**
 * PUT /api/v2/guardian/factors/{name} `{enabled}` → 200 `{enabled}`. Enabling
 * a factor this server cannot use is 400 `operation_not_supported`.
 */
export const setFactor: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url: '/guardian/factors/:name',
  config: { scopes: ['update:guardian_factors'] },
  schema: { params: FactorParams, consumes: [...BODY_CONTENT_TYPES], body: FactorBody, response: { 200: FactorResponse } },
  preValidation: coerceFormBooleans(FactorBody),
  handler: async (request) => mfa.setFactor(request.tenant, request.params.name, request.body.enabled),
});
