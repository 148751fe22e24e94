/** Business rules of the client grants linked to an organization, behind the Management API routes. */
import { clientGrantFromRow, type ClientGrantRow } from '../../../domain/client-grants/model.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import type { OrganizationClientGrantFilter, OrganizationStore } from '../../../domain/organizations/store.js';
import { isoAt } from '../../../platform/clock.js';
import type { ClientGrantStore } from '../../../domain/client-grants/store.js';

/** The service's quota (its OpenAPI document, POST /organizations/{id}/client-grants, 409). */
export const MAX_CLIENT_GRANTS_PER_ORGANIZATION = 100;

const organizationNotFound = () => managementErrors.notFound('No organization found by that id.', 'inexistent_organization');
const grantNotFound = () => managementErrors.notFound('The grant does not exist.', 'inexistent_client_grant');

/** `OrganizationClientGrant`: the grant's members that concern organizations. */
export interface OrganizationClientGrant {
  id: string;
  client_id?: string;
  audience: string;
  scope: string[];
  organization_usage?: string;
  allow_any_organization?: boolean;
}

export type OrganizationClientGrantList =
  | OrganizationClientGrant[]
  | { client_grants: OrganizationClientGrant[]; start: number; limit: number; total: number };

function toOrganizationClientGrant(row: ClientGrantRow): OrganizationClientGrant {
  const grant = clientGrantFromRow(row);
  const result: OrganizationClientGrant = { id: grant.id, audience: grant.audience, scope: grant.scope };
  if (grant.client_id !== undefined) result.client_id = grant.client_id;
  if (grant.organization_usage !== undefined) result.organization_usage = grant.organization_usage;
  if (grant.allow_any_organization !== undefined) result.allow_any_organization = grant.allow_any_organization;
  return result;
}

/** What OrganizationClientGrantService touches. */
export interface OrganizationClientGrantServiceContext {
  readonly now: () => number;
  readonly stores: { readonly clientGrants: ClientGrantStore };
}

export class OrganizationClientGrantService {
  constructor(
    private readonly ctx: OrganizationClientGrantServiceContext,
    private readonly organizations: OrganizationStore,
  ) {}

  /** Offset paging only, as the document describes this list. */
  async list(
    tenant: Tenant,
    organizationId: string,
    filter: OrganizationClientGrantFilter,
    paging: { page: number; perPage: number; includeTotals: boolean },
  ): Promise<OrganizationClientGrantList> {
    await this.#requireOrganization(tenant, organizationId);
    const start = paging.page * paging.perPage;
    const { rows, total } = await this.organizations.listClientGrants(tenant.id, organizationId, filter, {
      offset: start,
      limit: paging.perPage,
      withTotal: paging.includeTotals,
    });
    const grants = rows.map(toOrganizationClientGrant);
    if (!paging.includeTotals) return grants;
    return { client_grants: grants, start, limit: paging.perPage, total: total ?? 0 };
  }

  /**
   * Links the grant. Only grants that let client credentials exchanges name an
   * organization (`organization_usage` allow or require) can be linked: a
   * `deny` grant ignores its organizations, so a link would only mislead.
   */
  async associate(tenant: Tenant, organizationId: string, grantId: string): Promise<OrganizationClientGrant> {
    await this.#requireOrganization(tenant, organizationId);
    const grant = await this.ctx.stores.clientGrants.get(tenant.id, grantId);
    if (!grant) throw grantNotFound();
    const usage = grant.organization_usage ?? 'deny';
    if (usage !== 'allow' && usage !== 'require') {
      throw managementErrors.invalidBody(
        `The client grant ${grantId} has organization_usage ${usage}; ` +
          'only grants with organization_usage allow or require can be associated with an organization.',
      );
    }
    // Counted before the insert: concurrent requests may overshoot by a few, which the quota tolerates.
    if ((await this.organizations.countClientGrants(tenant.id, organizationId)) >= MAX_CLIENT_GRANTS_PER_ORGANIZATION) {
      throw managementErrors.conflict(
        `Quota exceeded; cannot add more than ${MAX_CLIENT_GRANTS_PER_ORGANIZATION} client grants to a single organization`,
      );
    }
    const result = await this.organizations.linkClientGrant(tenant.id, organizationId, grantId, isoAt(this.ctx.now()));
    if (result === 'already_linked') throw managementErrors.conflict('The client grant has already been added to this organization.');
    if (result === 'missing') {
      // Deleted since it was read above.
      await this.#requireOrganization(tenant, organizationId);
      throw grantNotFound();
    }
    return toOrganizationClientGrant(grant);
  }

  /** Unlinking a grant that is not linked succeeds too: the document's only 404 is for the organization. */
  async remove(tenant: Tenant, organizationId: string, grantId: string): Promise<void> {
    await this.#requireOrganization(tenant, organizationId);
    await this.organizations.unlinkClientGrant(tenant.id, organizationId, grantId);
  }

  async #requireOrganization(tenant: Tenant, organizationId: string): Promise<void> {
    if (!(await this.organizations.get(tenant.id, organizationId))) throw organizationNotFound();
  }
}
