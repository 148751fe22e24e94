/**
 * `http://auth0.com/oauth/grant-type/mfa-otp` (wire notes §5.1): the
 * `mfa_token` of an `mfa_required` answer and a TOTP code of the user's
 * authenticator app (its first code confirms a new enrolment). A code is
 * accepted once; a wrong one is 403 "Invalid otp_code.".
 */
import { verifyTotp } from '../../../domain/mfa/service.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { completeMfaLogin, mfaLoginOf, refuseFailedFactor } from '../mfa-grant.js';

export const MFA_OTP_GRANT = 'http://auth0.com/oauth/grant-type/mfa-otp';

export const mfaOtp: GrantHandler = {
  grantType: MFA_OTP_GRANT,
  parameters: ['mfa_token', 'otp'],
  requiresConfidentialClient: false,

  async handle({ ctx, tenant, params, client }: GrantContext): Promise<TokenResponse> {
    const login = await mfaLoginOf(ctx, tenant, client, params);
    requireParams(params, 'otp');
    const { outcome } = await verifyTotp(ctx, tenant.id, login.user.user_id, params.otp!);
    refuseFailedFactor(outcome, 'Invalid otp_code.');
    return completeMfaLogin(ctx, tenant, client, login);
  },
};
