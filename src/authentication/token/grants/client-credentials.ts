/**
 * `grant_type=client_credentials` (RFC 6749 §4.4) as the service implements it:
 * the audience selects the resource server (or the tenant's default audience),
 * the client needs a client grant for it, and the requested scopes are cut
 * down to that grant; `organization` (or the client's default organization)
 * as the grant's `organization_usage` allows (../client-credentials-organization.ts).
 * Error texts: authentication-api-wire-notes §5.1.
 */
import { oauthErrors } from '../../../platform/http/errors.js';
import { issueAccessToken } from '../../../domain/tokens/access-token.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { tokenTypeOf } from '../../../domain/tokens/confirmation.js';
import { clientCredentialsOrganization } from '../client-credentials-organization.js';

export const clientCredentials: GrantHandler = {
  grantType: 'client_credentials',
  parameters: ['audience', 'scope', 'organization'],
  requiresConfidentialClient: true,

  async handle({ ctx, tenant, params, client, confirmation }: GrantContext): Promise<TokenResponse> {
    const audience = params.audience ?? tenant.settings.default_audience;
    if (!audience) {
      throw oauthErrors.accessDenied('No audience parameter was provided, and no default audience has been configured');
    }
    const api = await ctx.lookups.resourceServer(tenant.id, audience);
    if (!api) throw oauthErrors.accessDenied(`Service not enabled within domain: ${audience}`);
    if (api.policies.client === 'deny_all') throw oauthErrors.accessDenied(`The API "${audience}" does not allow client access`);

    const clientId = client.client.row.client_id;
    const grant = await ctx.lookups.grant(tenant.id, clientId, api);
    if (!grant) {
      throw oauthErrors.accessDenied(
        `Client is not authorized to access "${audience}". You might probably want to create a "client-grant" associated to this API. See: POST /api/v2/client-grants`,
      );
    }

    // Without a scope parameter the client gets everything its grant allows.
    const requested = params.scope === undefined ? undefined : new Set(params.scope.split(' '));
    const scope = requested === undefined ? grant.allowedScope : grant.allowed.filter((s) => requested.has(s)).join(' ');

    const organization = await clientCredentialsOrganization(ctx, tenant, client, grant, params.organization);

    const { token, expiresIn } = await issueAccessToken(ctx, {
      tenant,
      resourceServer: api.row,
      subject: `${clientId}@clients`,
      clientId,
      scope,
      grantType: 'client-credentials',
      // `*_authz` dialects: a machine's permissions are the scopes it was granted.
      permissions: scope === '' ? [] : scope.split(' '),
      ...(confirmation && { confirmation: confirmation }),
      ...(organization && { organization }),
    });
    const token_type = tokenTypeOf(confirmation);
    if (scope) return { access_token: token, scope, expires_in: expiresIn, token_type };
    return { access_token: token, expires_in: expiresIn, token_type };
  },
};
