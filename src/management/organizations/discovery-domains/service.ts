/**
 * Business rules of organizations' discovery domains (the email domains by
 * which the pre-login organization prompt finds an organization, when the
 * client's `organization_discovery_methods` include `email`):
 *
 * - a domain is stored in lower case, once per organization (409, the
 *   document's "already registered to this organization");
 * - `status` is `pending` (the default) or `verified`, set through the API
 *   (Gatehouse does not look the TXT record up itself; README); a domain is
 *   verified for one organization of the tenant at most (409 naming the
 *   conflict), so an email address leads to one organization;
 * - `use_for_organization_discovery` defaults to true;
 * - `verification_txt` is a random token made at creation, and
 *   `verification_host` is `_gatehouse-challenge.{domain}` (Gatehouse's
 *   name; the service's is not recorded).
 */
import type { DiscoveryDomainChanges, DiscoveryDomainWrite, OrganizationDiscoveryDomainStore } from '../../../domain/organizations/discovery-domains-store.js';
import type { OrganizationDiscoveryDomainRow } from '../../../domain/rows.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { newPrefixedId, randomString } from '../../../platform/crypto/ids.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../../lists.js';
import { notFound as organizationNotFound } from '../service.js';
import type { CreateDiscoveryDomainBody, UpdateDiscoveryDomainBody } from './schema.js';
import type { OrganizationStore } from '../../../domain/organizations/store.js';

export interface DiscoveryDomain {
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  use_for_organization_discovery: boolean;
  verification_txt: string;
  verification_host: string;
}

export const VERIFICATION_HOST_PREFIX = '_gatehouse-challenge.';

function toApi(row: OrganizationDiscoveryDomainRow): DiscoveryDomain {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    use_for_organization_discovery: row.use_for_organization_discovery === 1,
    verification_txt: row.verification_txt,
    verification_host: `${VERIFICATION_HOST_PREFIX}${row.domain}`,
  };
}

const domainMissing = () => managementErrors.notFound('The discovery domain does not exist.');

function refuse(result: DiscoveryDomainWrite, domain: string): never {
  switch (result) {
    case 'domain_taken':
      throw managementErrors.conflict('An organization discovery domain with this domain is already registered to this organization.');
    case 'verified_elsewhere':
      throw managementErrors.conflict(`The domain ${domain} is already verified for another organization.`);
    default:
      throw organizationNotFound();
  }
}

/** What OrganizationDiscoveryDomainService touches. */
export interface OrganizationDiscoveryDomainServiceContext extends CheckpointSealing {
  readonly now: () => number;
  readonly stores: {
    readonly organizationDiscoveryDomains: OrganizationDiscoveryDomainStore;
    readonly organizations: OrganizationStore;
  };
}

export class OrganizationDiscoveryDomainService {
  constructor(private readonly ctx: OrganizationDiscoveryDomainServiceContext) {}

  private async requireOrganization(tenant: Tenant, organizationId: string): Promise<void> {
    if (!(await this.ctx.stores.organizations.get(tenant.id, organizationId))) throw organizationNotFound();
  }

  async list(tenant: Tenant, organizationId: string, query: { from?: string; take?: number }): Promise<CheckpointList<'domains', DiscoveryDomain>> {
    await this.requireOrganization(tenant, organizationId);
    const scope = `${tenant.id}:discovery-domains:${organizationId}`;
    const paging = checkpointPaging(this.ctx, query, scope);
    return checkpointPage(this.ctx, scope, 'domains', paging, (window) => this.ctx.stores.organizationDiscoveryDomains.list(tenant.id, organizationId, window), (row) => row.id, toApi);
  }

  async get(tenant: Tenant, organizationId: string, id: string): Promise<DiscoveryDomain> {
    const row = await this.ctx.stores.organizationDiscoveryDomains.get(tenant.id, organizationId, id);
    if (row) return toApi(row);
    await this.requireOrganization(tenant, organizationId);
    throw domainMissing();
  }

  async getByName(tenant: Tenant, organizationId: string, domain: string): Promise<DiscoveryDomain> {
    const row = await this.ctx.stores.organizationDiscoveryDomains.getByDomain(tenant.id, organizationId, domain.toLowerCase());
    if (row) return toApi(row);
    await this.requireOrganization(tenant, organizationId);
    throw domainMissing();
  }

  async create(tenant: Tenant, organizationId: string, body: CreateDiscoveryDomainBody): Promise<DiscoveryDomain> {
    const row: OrganizationDiscoveryDomainRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('ordd'),
      organization_id: organizationId,
      domain: body.domain.toLowerCase(),
      status: body.status ?? 'pending',
      use_for_organization_discovery: body.use_for_organization_discovery === false ? 0 : 1,
      verification_txt: `gatehouse-domain-verification=${randomString(32)}`,
      created_at: isoAt(this.ctx.now()),
    };
    const result = await this.ctx.stores.organizationDiscoveryDomains.insert(row);
    if (result !== 'done') refuse(result, row.domain);
    return toApi(row);
  }

  async update(tenant: Tenant, organizationId: string, id: string, body: UpdateDiscoveryDomainBody): Promise<DiscoveryDomain> {
    const current = await this.get(tenant, organizationId, id);
    const changes: DiscoveryDomainChanges = {};
    if (body.status !== undefined) changes.status = body.status;
    if (body.use_for_organization_discovery !== undefined) changes.use_for_organization_discovery = body.use_for_organization_discovery ? 1 : 0;
    const result = await this.ctx.stores.organizationDiscoveryDomains.update(tenant.id, organizationId, id, changes);
    if (result === 'not_found') throw domainMissing();
    if (result !== 'done') refuse(result, current.domain);
    return this.get(tenant, organizationId, id);
  }

  async remove(tenant: Tenant, organizationId: string, id: string): Promise<void> {
    if (await this.ctx.stores.organizationDiscoveryDomains.delete(tenant.id, organizationId, id)) return;
    await this.requireOrganization(tenant, organizationId);
    throw domainMissing();
  }
}
