/**
 * `http://auth0.com/oauth/grant-type/mfa-oob` (wire notes §5.1): the
 * `mfa_token`, the `oob_code` of a challenge (POST /mfa/challenge or
 * /mfa/associate) and, for email and SMS (`binding_method: "prompt"`), the
 * `binding_code` the user received. The challenge must be this user's and
 * this client's, unexpired and unused; a wrong binding code is 403
 * "Invalid binding_code.".
 *
 * A push challenge (no binding code) is polled: 400 `authorization_pending`
 * while the device has not answered, 400 `slow_down` when polled faster
 * than every PUSH_POLL_INTERVAL seconds, 400 `access_denied` "MFA
 * Authorization rejected." when denied (the service's answers, wire notes
 * §5.1 and §16.4), the tokens once approved.
 */
import { verifyOob } from '../../../domain/mfa/service.js';
import { PUSH_POLL_INTERVAL, pollPushChallenge } from '../../../domain/mfa/push.js';
import { oauthErrors } from '../../../platform/http/errors.js';
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
    requireParams(params, 'oob_code');
    const clientId = client.client.row.client_id;
    if (params.binding_code === undefined) {
      const poll = await pollPushChallenge(ctx, tenant.id, login.user.user_id, clientId, params.oob_code!, true);
      switch (poll.outcome) {
        case 'not_push':
          throw oauthErrors.invalidRequest('Missing required parameter: binding_code');
        case 'pending':
          throw oauthErrors.authorizationPending('Authorization pending: please repeat the request in a few seconds.');
        case 'slow_down':
          throw oauthErrors.slowDown(`You are polling faster than the specified interval of ${PUSH_POLL_INTERVAL} seconds.`);
        case 'denied':
          throw oauthErrors.accessDenied('MFA Authorization rejected.', 400);
        default:
          refuseFailedFactor(poll.outcome, 'Invalid oob_code.');
          return completeMfaLogin(ctx, tenant, client, login);
      }
    }
    const { outcome } = await verifyOob(ctx, tenant.id, login.user.user_id, clientId, params.oob_code!, params.binding_code);
    refuseFailedFactor(outcome, 'Invalid binding_code.');
    return completeMfaLogin(ctx, tenant, client, login);
  },
};
