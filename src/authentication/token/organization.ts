/**
 * The organization a grant made on a user's behalf is for, when it is
 * redeemed (an authorization code, a refresh token): the organization must
 * still exist and the user must still be a member, else the grant is refused
 * (a member removed from an organization stops getting its tokens).
 */
import type { AppContext } from '../../domain/context.js';
import type { TokenOrganization } from '../../domain/organizations/login.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { OAuthError } from '../../platform/http/errors.js';

export async function grantOrganization(
  ctx: AppContext,
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
