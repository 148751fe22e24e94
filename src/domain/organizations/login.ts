/**
 * Organizations as logins and tokens see them (issue: organizations in
 * login): the `organization` parameter names one by id (`org_…`) or by name;
 * tokens issued for a login to it carry `org_id`, and `org_name` when the
 * tenant's `allow_organization_name_in_authentication_api` setting asks for
 * it, as the service does.
 */
import type { Stores } from '../stores.js';
import type { OrganizationRow } from '../rows.js';
import type { Tenant } from '../tenants/tenant.js';

/** The organization a token is issued for. */
export interface TokenOrganization {
  id: string;
  name: string;
}

const ID_PREFIX = 'org_';

/** The organization an `organization` parameter names: by id when it has the id prefix, else by name. */
export function findOrganization(stores: Pick<Stores, 'organizations'>, tenantId: string, idOrName: string): Promise<OrganizationRow | undefined> {
  return idOrName.startsWith(ID_PREFIX) ? stores.organizations.get(tenantId, idOrName) : stores.organizations.getByName(tenantId, idOrName);
}

/** The claims of a token issued for an organization. */
export function organizationClaims(tenant: Tenant, organization: TokenOrganization | undefined): Record<string, string> {
  if (!organization) return {};
  return {
    org_id: organization.id,
    ...(tenant.settings.allow_organization_name_in_authentication_api === true && { org_name: organization.name }),
  };
}
