import type {
  EnableResult,
  OrganizationConnectionChanges,
  OrganizationConnectionDetail,
  OrganizationConnectionStore,
} from '../../domain/organizations/connections-store.js';
import type { OffsetWindow, Page } from '../../domain/paging.js';
import type { OrganizationConnectionRow } from '../../domain/organizations/rows.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fetchPage } from '../paging.js';
import { rowExists } from '../links.js';

export class KyselyOrganizationConnectionStore implements OrganizationConnectionStore {
  constructor(private readonly db: Db) {}

  async enable(row: OrganizationConnectionRow): Promise<EnableResult> {
    try {
      await this.db.insertInto('organization_connections').values(row).execute();
      return 'enabled';
    } catch (error) {
      if (isUniqueViolation(error)) return 'already_enabled';
      if (!isForeignKeyViolation(error)) throw error;
      return (await rowExists(this.db, 'organization', row.tenant_id, row.organization_id)) ? 'connection_not_found' : 'organization_not_found';
    }
  }

  get(tenantId: string, organizationId: string, connectionId: string): Promise<OrganizationConnectionDetail | undefined> {
    return this.#detailed(tenantId, organizationId).where('oc.connection_id', '=', connectionId).selectAll('oc').select(['c.name', 'c.strategy']).executeTakeFirst();
  }

  list(tenantId: string, organizationId: string, page: OffsetWindow): Promise<Page<OrganizationConnectionDetail>> {
    return fetchPage(this.#detailed(tenantId, organizationId), (q) => q.selectAll('oc').select(['c.name', 'c.strategy']), 'oc.connection_id', {
      kind: 'offset',
      ...page,
    });
  }

  async update(tenantId: string, organizationId: string, connectionId: string, changes: OrganizationConnectionChanges): Promise<boolean> {
    if (Object.keys(changes).length === 0) return (await this.get(tenantId, organizationId, connectionId)) !== undefined;
    const result = await this.db
      .updateTable('organization_connections')
      .set(changes)
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('connection_id', '=', connectionId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async disable(tenantId: string, organizationId: string, connectionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('organization_connections')
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('connection_id', '=', connectionId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  #detailed(tenantId: string, organizationId: string) {
    return this.db
      .selectFrom('organization_connections as oc')
      .innerJoin('connections as c', (j) => j.onRef('c.tenant_id', '=', 'oc.tenant_id').onRef('c.id', '=', 'oc.connection_id'))
      .where('oc.tenant_id', '=', tenantId)
      .where('oc.organization_id', '=', organizationId);
  }
}
