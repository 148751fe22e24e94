import type { Db } from '../database.js';
import type { ClientGrantRow } from '../../domain/client-grants/model.js';
import type { ClientGrantFilter, ClientGrantPageQuery, ClientGrantStore } from '../../domain/client-grants/store.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

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
    page: ClientGrantPageQuery,
  ): Promise<{ rows: ClientGrantRow[]; total?: number }> {
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

    if (page.kind === 'keyset') {
      const q = page.after === undefined ? base : base.where('id', '>', page.after);
      return { rows: await parsedRows('client_grants', q.selectAll().orderBy('id').limit(page.limit).execute()) };
    }
    const rows = await parsedRows('client_grants', base.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute());
    if (!page.withTotal) return { rows };
    const count = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(count.n) };
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
