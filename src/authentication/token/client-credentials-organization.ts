/**
 * The organization of a client credentials grant (issue: organizations;
 * the service's machine-to-machine access for organizations): the
 * `organization` parameter (id or name), else the client's
 * `default_organization` when its `flows` name `client_credentials`.
 *
 * - The client grant's `organization_usage` decides: `deny` (the default)
 *   refuses an organization; `allow` takes one or none; `require` needs one.
 * - The organization must exist, and the grant must be linked to it
 *   (POST /organizations/{id}/client-grants) unless it has
 *   `allow_any_organization`.
 * The token then carries `org_id` (and `org_name` with the tenant setting).
 */
import type { IssuanceGrant } from '../../domain/issuance/lookups.js';
import { findOrganization, type TokenOrganization } from '../../domain/organizations/login.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import type { OrganizationStore } from '../../domain/organizations/store.js';

const CLIENT_CREDENTIALS_FLOW = 'client_credentials';

function defaultOrganization(client: AuthenticatedClient): string | undefined {
  const config = client.client.row.config as { default_organization?: { organization_id?: unknown; flows?: unknown } | null };
  const value = config.default_organization;
  return value && typeof value.organization_id === 'string' && Array.isArray(value.flows) && value.flows.includes(CLIENT_CREDENTIALS_FLOW)
    ? value.organization_id
    : undefined;
}

/** What a client-credentials grant's organization touches. */
export interface ClientCredentialsOrganizationContext {
  readonly stores: { readonly organizations: OrganizationStore };
}

export async function clientCredentialsOrganization(
  ctx: ClientCredentialsOrganizationContext,
  tenant: Tenant,
  client: AuthenticatedClient,
  grant: IssuanceGrant,
  requested: string | undefined,
): Promise<TokenOrganization | undefined> {
  const usage = grant.row.organization_usage ?? 'deny';
  const named = requested ?? (usage === 'deny' ? undefined : defaultOrganization(client));
  if (named === undefined) {
    if (usage === 'require') throw oauthErrors.invalidRequest('An organization is required for this client grant (organization_usage: require)');
    return undefined;
  }
  if (usage === 'deny') throw oauthErrors.invalidRequest('The client grant does not allow organizations (organization_usage: deny)');
  const organization = named.length <= 50 ? await findOrganization(ctx.stores, tenant.id, named) : undefined;
  if (!organization) throw oauthErrors.invalidRequest(`No organization found with the id or name ${named}`);
  if (grant.row.allow_any_organization !== 1) {
    const linked = await ctx.stores.organizations.listClientGrants(tenant.id, organization.id, { grant_ids: [grant.row.id] }, { offset: 0, limit: 1, withTotal: false });
    if (linked.rows.length === 0) throw oauthErrors.accessDenied(`Client is not authorized to access the organization ${organization.id} with this client grant`);
  }
  return { id: organization.id, name: organization.name };
}
