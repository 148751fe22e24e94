import type { DiscoveryDomainChanges, DiscoveryDomainWrite, OrganizationDiscoveryDomainStore } from '../../domain/organizations/discovery-domains-store.js';
import type { KeysetWindow } from '../../domain/paging.js';
import type { OrganizationDiscoveryDomainRow } from '../../domain/organizations/rows.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fetchPage } from '../paging.js';

export class KyselyOrganizationDiscoveryDomainStore implements OrganizationDiscoveryDomainStore {
  constructor(private readonly db: Db) {}

  async insert(row: OrganizationDiscoveryDomainRow): Promise<DiscoveryDomainWrite> {
    try {
      await this.db.insertInto('organization_discovery_domains').values(row).execute();
      return 'done';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'not_found';
      if (isUniqueViolation(error)) return (await this.getByDomain(row.tenant_id, row.organization_id, row.domain)) ? 'domain_taken' : 'verified_elsewhere';
      throw error;
    }
  }

  get(tenantId: string, organizationId: string, id: string): Promise<OrganizationDiscoveryDomainRow | undefined> {
    return this.#of(tenantId, organizationId).where('id', '=', id).executeTakeFirst();
  }

  getByDomain(tenantId: string, organizationId: string, domain: string): Promise<OrganizationDiscoveryDomainRow | undefined> {
    return this.#of(tenantId, organizationId).where('domain', '=', domain).executeTakeFirst();
  }

  async list(tenantId: string, organizationId: string, page: KeysetWindow): Promise<OrganizationDiscoveryDomainRow[]> {
    const base = this.db.selectFrom('organization_discovery_domains').where('tenant_id', '=', tenantId).where('organization_id', '=', organizationId);
    return (await fetchPage(base, (q) => q.selectAll(), 'id', { kind: 'keyset', ...page })).rows;
  }

  async update(tenantId: string, organizationId: string, id: string, changes: DiscoveryDomainChanges): Promise<DiscoveryDomainWrite> {
    if (Object.keys(changes).length === 0) return (await this.get(tenantId, organizationId, id)) ? 'done' : 'not_found';
    try {
      const result = await this.db
        .updateTable('organization_discovery_domains')
        .set(changes)
        .where('tenant_id', '=', tenantId)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? 'done' : 'not_found';
    } catch (error) {
      if (isUniqueViolation(error)) return 'verified_elsewhere';
      throw error;
    }
  }

  async delete(tenantId: string, organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('organization_discovery_domains')
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  findVerified(tenantId: string, domain: string): Promise<OrganizationDiscoveryDomainRow | undefined> {
    return this.db
      .selectFrom('organization_discovery_domains')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('domain', '=', domain)
      .where('status', '=', 'verified')
      .where('use_for_organization_discovery', '=', 1)
      .executeTakeFirst();
  }

  #of(tenantId: string, organizationId: string) {
    return this.db.selectFrom('organization_discovery_domains').selectAll().where('tenant_id', '=', tenantId).where('organization_id', '=', organizationId);
  }
}
