/**
 * `http://auth0.com/oauth/grant-type/mfa-recovery-code` (wire notes §5.1):
 * the `mfa_token` and the user's recovery code, which is spent; the answer
 * carries the new one as `recovery_code` (GOREC TestMFAVerifyWithRecoveryCode).
 * A wrong or already used code is 403 "Invalid recovery_code.".
 */
import { useRecoveryCode } from '../../../domain/mfa/service.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { completeMfaLogin, mfaLoginOf, refuseFailedFactor } from '../mfa-grant.js';

export const MFA_RECOVERY_CODE_GRANT = 'http://auth0.com/oauth/grant-type/mfa-recovery-code';

export const mfaRecoveryCode: GrantHandler = {
  grantType: MFA_RECOVERY_CODE_GRANT,
  parameters: ['mfa_token', 'recovery_code'],
  requiresConfidentialClient: false,

  async handle({ ctx, tenant, params, client }: GrantContext): Promise<TokenResponse> {
    const login = await mfaLoginOf(ctx, tenant, client, params);
    requireParams(params, 'recovery_code');
    const result = await useRecoveryCode(ctx, tenant.id, login.user.user_id, params.recovery_code!);
    refuseFailedFactor(result.outcome, 'Invalid recovery_code.');
    const tokens = await completeMfaLogin(ctx, tenant, client, login);
    return { ...tokens, recovery_code: (result as { next: string }).next };
  },
};
