/**
 * The organization a grant made on a user's behalf is for, when it is
 * redeemed (an authorization code, a refresh token): the organization must
 * still exist and the user must still be a member, else the grant is refused
 * (a member removed from an organization stops getting its tokens).
 */
import type { TokenOrganization } from '../../domain/organizations/login.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { OAuthError } from '../../platform/http/errors.js';
import type { OrganizationMemberStore } from '../../domain/organizations/members-store.js';
import type { OrganizationStore } from '../../domain/organizations/store.js';

/** What checking a grant's organization touches. */
export interface GrantOrganizationContext {
  readonly stores: { readonly organizationMembers: OrganizationMemberStore; readonly organizations: OrganizationStore };
}

export async function grantOrganization(
  ctx: GrantOrganizationContext,
  tenant: Tenant,
  organizationId: string | null,
  userId: string,
  refuse: () => OAuthError,
): Promise<TokenOrganization | undefined> {
  if (organizationId === null) return undefined;
  const organization = await ctx.stores.organizations.get(tenant.id, organizationId);
  if (!organization || !(await ctx.stores.organizationMembers.isMember(tenant.id, organizationId, userId))) throw refuse();
  return { id: organization.id, name: organization.name };
}
