/**
 * `http://auth0.com/oauth/grant-type/mfa-oob` (wire notes §5.1): the
 * `mfa_token`, the `oob_code` of a challenge (POST /mfa/challenge or
 * /mfa/associate) and, for email and SMS (`binding_method: "prompt"`), the
 * `binding_code` the user received. The challenge must be this user's and
 * this client's, unexpired and unused; a wrong binding code is 403
 * "Invalid binding_code.".
 */
import { verifyOob } from '../../../domain/mfa/service.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { completeMfaLogin, mfaLoginOf, refuseFailedFactor } from '../mfa-grant.js';

export const MFA_OOB_GRANT = 'http://auth0.com/oauth/grant-type/mfa-oob';

export const mfaOob: GrantHandler = {
  grantType: MFA_OOB_GRANT,
  parameters: ['mfa_token', 'oob_code', 'binding_code'],
  requiresConfidentialClient: false,

  async handle({ ctx, tenant, params, client }: GrantContext): Promise<TokenResponse> {
    const login = await mfaLoginOf(ctx, tenant, client, params);
    requireParams(params, 'oob_code', 'binding_code');
    const { outcome } = await verifyOob(ctx, tenant.id, login.user.user_id, client.client.row.client_id, params.oob_code!, params.binding_code!);
    refuseFailedFactor(outcome, 'Invalid binding_code.');
    return completeMfaLogin(ctx, tenant, client, login);
  },
};
