/**
 * `http://auth0.com/oauth/grant-type/passwordless/otp` (wire notes §5.1):
 * `realm` names the email or sms connection (enabled for the client),
 * `username` the address or phone number, `otp` the code /passwordless/start sent to it for this
 * client. A code logs in once, before it expires, and locks after a few
 * wrong tries; any failure is 403 `invalid_grant` "Wrong email or
 * verification code." ("Wrong phone number or verification code." for
 * sms). The first login creates the `email|…` or `sms|…` user unless
 * the connection has `disable_signup` (then the same refusal: the address
 * has no account, and no code was ever sent to it). MFA applies as after a
 * password.
 */
import { passwordlessUser, verifyEmailCode } from '../../../domain/passwordless/service.js';
import { isActive } from '../../../domain/users/active-user.js';
import { recordLogin } from '../../../domain/users/login.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { requireSecondFactor } from '../../mfa/required.js';
import { SMS_STRATEGY } from '../../../domain/passwordless/options.js';
import { passwordlessConnection } from '../../passwordless/connection.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { issueUserTokens } from '../user-tokens.js';

export const PASSWORDLESS_OTP_GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';

export const passwordlessOtp: GrantHandler = {
  grantType: PASSWORDLESS_OTP_GRANT,
  parameters: ['realm', 'username', 'otp', 'audience', 'scope'],
  // Public clients log in with client_id alone ("client_secret… Required for Regular Web Applications only").
  requiresConfidentialClient: false,

  async handle({ ctx, tenant, params, client, login }: GrantContext): Promise<TokenResponse> {
    requireParams(params, 'realm', 'username', 'otp');
    const clientId = client.client.row.client_id;
    const connection = await passwordlessConnection(ctx, tenant, clientId, params.realm);
    if (!connection) throw oauthErrors.invalidRequest(`Connection does not exist or is not enabled for the client: ${params.realm}`);
    login.connection = connection;
    const wrongCode = () => oauthErrors.invalidGrant(connection.strategy === SMS_STRATEGY ? 'Wrong phone number or verification code.' : 'Wrong email or verification code.');
    if (!(await verifyEmailCode(ctx, tenant, connection, clientId, params.username!, params.otp!))) throw wrongCode();
    const found = await passwordlessUser(ctx, tenant, connection, params.username!);
    if (found) login.user = found;
    if (!found) throw wrongCode();
    if (!isActive(found)) throw oauthErrors.userBlocked();
    await requireSecondFactor(ctx, tenant, client.client, found, { audience: params.audience, scope: params.scope });
    const user = await recordLogin(ctx.stores.users, ctx.now(), found);
    return issueUserTokens(ctx, { tenant, client: client.client, user, audience: params.audience, scope: params.scope });
  },
};
