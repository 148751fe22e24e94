/**
 * `grant_type=client_credentials` (RFC 6749 §4.4) as the service implements it:
 * the audience selects the resource server (or the tenant's default audience),
 * the client needs a client grant for it, and the requested scopes are cut
 * down to that grant. Error texts: authentication-api-wire-notes §5.1.
 */
import type { ClientGrantRow } from '../../../client-grants/model.js';
import { oauthErrors } from '../../../http/errors.js';
import type { ResourceServerRow, ResourceServerScope } from '../../../resource-servers/model.js';
import { issueAccessToken } from '../../../tokens/access-token.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';

/** Scopes the grant allows: its list, or every API scope with `allow_all_scopes`. */
function allowedScopes(grant: ClientGrantRow, api: ResourceServerRow): string[] {
  const defined = (JSON.parse(api.scopes) as ResourceServerScope[]).map((s) => s.value);
  if (grant.allow_all_scopes === 1) return defined;
  const definedSet = new Set(defined);
  return (JSON.parse(grant.scope) as string[]).filter((s) => definedSet.has(s));
}

export const clientCredentials: GrantHandler = {
  grantType: 'client_credentials',
  requiresConfidentialClient: true,

  async handle({ ctx, tenant, params, client }: GrantContext): Promise<TokenResponse> {
    const audience = params.audience ?? tenant.settings.default_audience;
    if (!audience) {
      throw oauthErrors.accessDenied('No audience parameter was provided, and no default audience has been configured');
    }
    const api = await ctx.resourceServers.getByIdentifier(tenant.id, audience);
    if (!api) throw oauthErrors.accessDenied(`Service not enabled within domain: ${audience}`);

    const clientId = client.client.client_id;
    const grant = await ctx.clientGrants.findForClient(tenant.id, clientId, audience);
    if (!grant) {
      throw oauthErrors.accessDenied(
        `Client is not authorized to access "${audience}". You might probably want to create a "client-grant" associated to this API. See: POST /api/v2/client-grants`,
      );
    }

    const allowed = allowedScopes(grant, api);
    const requested = params.scope?.split(' ').filter(Boolean);
    const scopes = requested === undefined ? allowed : allowed.filter((s) => requested.includes(s));

    const { token, expiresIn } = await issueAccessToken(ctx, {
      tenant,
      resourceServer: api,
      subject: `${clientId}@clients`,
      clientId,
      scopes,
      grantType: 'client-credentials',
    });
    if (scopes.length) return { access_token: token, scope: scopes.join(' '), expires_in: expiresIn, token_type: 'Bearer' };
    return { access_token: token, expires_in: expiresIn, token_type: 'Bearer' };
  },
};
