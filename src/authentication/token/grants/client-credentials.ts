/**
 * `grant_type=client_credentials` (RFC 6749 §4.4) as the service implements it:
 * the audience selects the resource server (or the tenant's default audience);
 * the token policy (src/domain/issuance/token-policy.ts) grants the scopes
 * (the client needs a client grant for the API, and the requested scopes are
 * cut down to it) and shapes the token; `organization` (or the client's default organization)
 * as the grant's `organization_usage` allows (../client-credentials-organization.ts).
 * Error texts: authentication-api-wire-notes §5.1.
 */
import { oauthErrors } from '../../../platform/http/errors.js';
import { issueAccessToken } from '../../../domain/tokens/access-token.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { tokenTypeOf } from '../../../domain/tokens/confirmation.js';
import { clientCredentialsOrganization } from '../client-credentials-organization.js';
import { audienceApi } from '../../../domain/issuance/audience.js';
import { runCredentialsExchange } from '../../actions/credentials-exchange.js';
import { endUserIp } from '../../end-user-ip.js';
import { accessTokenFormat, grantableClientScopes, tokenPolicy } from '../../../domain/issuance/token-policy.js';

export const clientCredentials: GrantHandler = {
  grantType: 'client_credentials',
  parameters: ['audience', 'scope', 'organization'],
  requiresConfidentialClient: true,

  async handle({ ctx, tenant, params, client, confirmation, request }: GrantContext): Promise<TokenResponse> {
    const audience = params.audience ?? tenant.settings.default_audience;
    if (!audience) {
      throw oauthErrors.accessDenied('No audience parameter was provided, and no default audience has been configured');
    }
    const api = await audienceApi(ctx.lookups, tenant.id, audience);
    const clientId = client.client.row.client_id;
    const { grant, scope } = await grantableClientScopes(ctx, tenant.id, clientId, api, params.scope);

    const organization = await clientCredentialsOrganization(ctx, tenant, client, grant, params.organization);
    const customClaims = await runCredentialsExchange(ctx, { tenantId: tenant.id, client: client.client, api, scope, requestedScope: params.scope, request, ip: endUserIp(request, client) });

    const { token, expiresIn } = await issueAccessToken(ctx, {
      tenant,
      resourceServer: api.row,
      format: accessTokenFormat(tokenPolicy(tenant.id, clientId, api), api),
      subject: `${clientId}@clients`,
      clientId,
      scope,
      grantType: 'client-credentials',
      // `*_authz` dialects: a machine's permissions are the scopes it was granted.
      permissions: scope === '' ? [] : scope.split(' '),
      ...(confirmation && { confirmation: confirmation }),
      ...(organization && { organization }),
      ...(customClaims && { customClaims }),
    });
    const token_type = tokenTypeOf(confirmation);
    if (scope) return { access_token: token, scope, expires_in: expiresIn, token_type };
    return { access_token: token, expires_in: expiresIn, token_type };
  },
};
