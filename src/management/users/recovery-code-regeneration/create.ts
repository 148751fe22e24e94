import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { RecoveryCodeResponse } from '../../guardian/mfa-schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

/** POST /api/v2/users/{id}/recovery-code-regeneration → 200 `{recovery_code}`; the old code stops working. */
export const regenerateRecoveryCode: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'POST',
  url: '/users/:id/recovery-code-regeneration',
  config: { scopes: ['update:users'] },
  schema: { params: userIdParams('ID of the user to regenerate a multi-factor authentication recovery code for'), response: { 200: RecoveryCodeResponse } },
  handler: async (request) => mfa.regenerateRecoveryCode(request.tenant, request.params.id),
});
