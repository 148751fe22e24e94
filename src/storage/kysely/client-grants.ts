import type { Db } from '../database.js';
import type { ClientGrantRow } from '../../domain/client-grants/model.js';
import type { ClientGrantFilter, ClientGrantStore } from '../../domain/client-grants/store.js';
import { parsedRow, toStored } from '../json-columns.js';
import { fetchPage, parsedPage } from '../paging.js';
import type { Page, PageQuery } from '../../domain/paging.js';

export class KyselyClientGrantStore implements ClientGrantStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, id: string): Promise<ClientGrantRow | undefined> {
    return parsedRow('client_grants', this.db.selectFrom('client_grants').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  findForClient(tenantId: string, clientId: string, audience: string, subjectType: 'client' | 'user' = 'client'): Promise<ClientGrantRow | undefined> {
    return parsedRow(
      'client_grants',
      this.db
        .selectFrom('client_grants')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('client_id', '=', clientId)
        .where('audience', '=', audience)
        .where('subject_type', '=', subjectType)
        .executeTakeFirst(),
    );
  }

  async list(
    tenantId: string,
    filter: ClientGrantFilter,
    page: PageQuery,
  ): Promise<Page<ClientGrantRow>> {
    let base = this.db.selectFrom('client_grants').where('tenant_id', '=', tenantId);
    if (filter.audience !== undefined) base = base.where('audience', '=', filter.audience);
    if (filter.client_id !== undefined) base = base.where('client_id', '=', filter.client_id);
    if (filter.allow_any_organization === true) base = base.where('allow_any_organization', '=', 1);
    if (filter.allow_any_organization === false) {
      // Unset counts as false.
      base = base.where((eb) => eb.or([eb('allow_any_organization', '=', 0), eb('allow_any_organization', 'is', null)]));
    }
    if (filter.subject_type !== undefined) base = base.where('subject_type', '=', filter.subject_type);
    if (filter.default_for !== undefined) base = base.where('default_for', '=', filter.default_for);

    return parsedPage('client_grants', fetchPage(base, (q) => q.selectAll(), 'id', page));
  }

  async insert(row: ClientGrantRow): Promise<void> {
    await this.db.insertInto('client_grants').values(toStored('client_grants', row)).execute();
  }

  async hasOrganizations(tenantId: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('organization_client_grants')
      .select('grant_id')
      .where('tenant_id', '=', tenantId)
      .where('grant_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(tenantId: string, id: string, changes: Partial<ClientGrantRow>): Promise<boolean> {
    const result = await this.db.updateTable('client_grants').set(toStored('client_grants', changes)).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('client_grants').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
