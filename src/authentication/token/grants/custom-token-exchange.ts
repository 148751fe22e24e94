/**
 * Custom token exchange (RFC 8693 at /oauth/token, actions-wire-notes §4):
 * `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` with a
 * `subject_token_type` that names one of the tenant's token exchange
 * profiles; the profile's action (custom-token-exchange trigger) validates
 * the subject token and sets the user, whose tokens are then issued as for
 * any user grant. The client must allow the profiles of type
 * `custom_authentication` (`token_exchange.allow_any_profile_of_type`).
 *
 * Users are set by id (`setUserById`) or by connection and `user_id`
 * (`setUserByConnection`, an existing user of that connection); creating a
 * user from the action's attributes is not offered yet.
 *
 * The subject token type `http://auth0.com/oauth/token-type/google-id-token`
 * is Google Native Social Login (../../social-connections/google-native.ts).
 */
import { GOOGLE_ID_TOKEN, googleNativeLogin } from '../../social-connections/google-native.js';
import { customTokenExchange } from '../../../domain/actions-runtime/triggers/custom-token-exchange.js';
import { withoutSecrets } from '../../../domain/actions-runtime/triggers/event-parts.js';
import { requireActiveUser } from '../../../domain/users/active-user.js';
import type { UserRow } from '../../../domain/users/rows.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { endUserIp } from '../../end-user-ip.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { issueUserTokens } from '../user-tokens.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const PROFILE_TYPE = 'custom_authentication';

function allowsCustomProfiles(config: Record<string, unknown>): boolean {
  const exchange = config.token_exchange as { allow_any_profile_of_type?: unknown } | undefined;
  return Array.isArray(exchange?.allow_any_profile_of_type) && exchange.allow_any_profile_of_type.includes(PROFILE_TYPE);
}

export const customTokenExchangeGrant: GrantHandler = {
  grantType: TOKEN_EXCHANGE,
  parameters: ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'scope', 'actor_token', 'actor_token_type'],
  requiresConfidentialClient: false,
  // Native Social Login is enabled by the client's native_social_login (which handle checks), not by grant_types.
  unlisted: (params) => params.subject_token_type === GOOGLE_ID_TOKEN,

  async handle(grant: GrantContext): Promise<TokenResponse> {
    const { ctx, tenant, request, params, client, confirmation, login } = grant;
    requireParams(params, 'subject_token', 'subject_token_type');
    // The service's own subject token types (a reserved namespace no profile can take): Native Social Login.
    if (params.subject_token_type === GOOGLE_ID_TOKEN) return googleNativeLogin(grant);
    const row = client.client.row;
    if (!allowsCustomProfiles(row.config)) throw oauthErrors.unauthorizedClient('The client is not allowed to use custom token exchange profiles');
    const profile = await ctx.stores.tokenExchangeProfiles.bySubjectTokenType(tenant.id, params.subject_token_type!);
    if (!profile) throw oauthErrors.invalidRequest(`No token exchange profile for subject_token_type ${params.subject_token_type}`);
    const action = await ctx.deployedActions.deployedAction(tenant.id, profile.action_id);
    if (!action) throw oauthErrors.serverError('The token exchange profile\'s action is not deployed');

    const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const { outcome, failure } = await ctx.actions.run(
      tenant.id,
      customTokenExchange,
      {
        tenant: { id: tenant.id },
        client: { client_id: row.client_id, name: row.name, metadata: (row.config.client_metadata as Record<string, unknown> | undefined) ?? {} },
        ...(params.audience !== undefined && { resourceServer: { identifier: params.audience } }),
        request: { ip: endUserIp(request, client), method: request.method, hostname: request.hostname, body: withoutSecrets(body) },
        transaction: {
          subject_token: params.subject_token!,
          subject_token_type: params.subject_token_type!,
          requested_scopes: (params.scope ?? '').split(' ').filter(Boolean),
          ...(params.actor_token !== undefined && { actor_token: params.actor_token }),
          ...(params.actor_token_type !== undefined && { actor_token_type: params.actor_token_type }),
        },
      },
      { actions: [action] },
    );
    if (failure) throw oauthErrors.accessDenied(failure.message);
    if (outcome.deny) {
      if (outcome.deny.code === 'invalid_request') throw oauthErrors.invalidRequest(outcome.deny.reason);
      if (outcome.deny.code === 'server_error') throw oauthErrors.serverError(outcome.deny.reason);
      throw oauthErrors.accessDenied(outcome.deny.reason);
    }
    if (!outcome.user) throw oauthErrors.accessDenied('The action set no user (api.authentication.setUserById or setUserByConnection)');

    let userId: string;
    if (outcome.user.kind === 'id') userId = outcome.user.userId;
    else {
      const connection = await ctx.stores.connections.getByName(tenant.id, outcome.user.connection);
      if (!connection) throw oauthErrors.invalidRequest(`No connection named ${outcome.user.connection}`);
      const id = String(outcome.user.attributes.user_id);
      userId = id.includes('|') ? id : `${connection.strategy}|${id}`;
    }
    login.userId = userId;
    const refuse = () => oauthErrors.invalidRequest('The user the action set does not exist (creating users from a token exchange is not offered yet)');
    const user: UserRow = await requireActiveUser(ctx.stores.users, tenant.id, userId, { missing: refuse, blocked: () => oauthErrors.userBlocked() });
    return issueUserTokens(ctx, {
      tenant,
      client: client.client,
      user,
      audience: params.audience,
      scope: params.scope,
      ...(confirmation && { confirmation }),
    });
  },
};
