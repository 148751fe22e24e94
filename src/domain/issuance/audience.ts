/**
 * The one audience check of the Authentication API: an audience names an
 * API of the tenant, or the request is refused in the service's words (403
 * `access_denied` "Service not enabled within domain: {audience}",
 * authentication-api-wire-notes §5.1). The token endpoint's grants (user
 * tokens, client_credentials) and the authorization-request family's
 * `checkResource` stage call it; each endpoint renders the refusal its way
 * (src/platform/http/error-rendering.ts).
 */
import { oauthErrors } from '../../platform/http/errors.js';
import type { IssuanceApi, IssuanceLookups } from './lookups.js';

export async function audienceApi(lookups: Pick<IssuanceLookups, 'resourceServer'>, tenantId: string, audience: string): Promise<IssuanceApi> {
  const api = await lookups.resourceServer(tenantId, audience);
  if (!api) throw oauthErrors.accessDenied(`Service not enabled within domain: ${audience}`);
  return api;
}
