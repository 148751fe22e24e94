import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { ClientGrantRow } from '../../domain/client-grants/model.js';
import { type Db } from '../database.js';
import type { OrganizationRow } from '../../domain/organizations/model.js';
import type { OrganizationPageQuery, OrganizationClientGrantFilter, LinkResult, OrganizationChanges, OrganizationStore } from '../../domain/organizations/store.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/database-errors.js';
import { parsedRow, toStored } from '../json-columns.js';
import { fetchPage, parsedPage } from '../paging.js';
import type { OffsetWindow, Page, PageQuery } from '../../domain/paging.js';

export class KyselyOrganizationStore implements OrganizationStore {
  readonly #postgres: boolean;

  constructor(private readonly db: Db) {
    this.#postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  get(tenantId: string, id: string): Promise<OrganizationRow | undefined> {
    return parsedRow('organizations', this.db.selectFrom('organizations').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  getByName(tenantId: string, name: string): Promise<OrganizationRow | undefined> {
    return parsedRow('organizations', this.db.selectFrom('organizations').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst());
  }

  async list(tenantId: string, page: OrganizationPageQuery): Promise<Page<OrganizationRow>> {
    const base = this.db.selectFrom('organizations').where('tenant_id', '=', tenantId);
    const sort = page.kind === 'offset' ? page.sort : undefined;
    const select = (q: typeof base) => q.selectAll();
    const rows = fetchPage(base, select, 'id', page, {
      // PostgreSQL's default null placement, spelled out so that SQLite agrees.
      ...(sort && {
        order: (q: ReturnType<typeof select>) =>
          q.orderBy(sort.field, (ob) => (sort.descending ? ob.desc().nullsFirst() : ob.asc().nullsLast())).orderBy('id', sort.descending ? 'desc' : 'asc'),
      }),
    });
    return parsedPage('organizations', rows);
  }

  async insert(row: OrganizationRow): Promise<void> {
    await this.db.insertInto('organizations').values(toStored('organizations', row)).execute();
  }

  async update(tenantId: string, id: string, changes: OrganizationChanges): Promise<boolean> {
    if (!Object.keys(changes).length) return (await this.get(tenantId, id)) !== undefined;
    const result = await this.db
      .updateTable('organizations')
      .set(toStored('organizations', changes))
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    // The links go with it: organization_client_grants cascades (migration 0003).
    const result = await this.db.deleteFrom('organizations').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async linkClientGrant(tenantId: string, organizationId: string, grantId: string, createdAt: string): Promise<LinkResult> {
    try {
      await this.db
        .insertInto('organization_client_grants')
        .values({ tenant_id: tenantId, organization_id: organizationId, grant_id: grantId, created_at: createdAt })
        .execute();
      return 'linked';
    } catch (error) {
      if (isUniqueViolation(error)) return 'already_linked';
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  async unlinkClientGrant(tenantId: string, organizationId: string, grantId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('organization_client_grants')
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('grant_id', '=', grantId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async countClientGrants(tenantId: string, organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('organization_client_grants')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listClientGrants(
    tenantId: string,
    organizationId: string,
    filter: OrganizationClientGrantFilter,
    page: OffsetWindow,
  ): Promise<Page<ClientGrantRow>> {
    let base = this.#linkedGrants(tenantId, organizationId);
    if (filter.audience !== undefined) base = base.where('cg.audience', '=', filter.audience);
    if (filter.client_id !== undefined) base = base.where('cg.client_id', '=', filter.client_id);
    if (filter.grant_ids !== undefined) base = base.where('ocg.grant_id', 'in', filter.grant_ids.length ? filter.grant_ids : ['']);
    return parsedPage('client_grants', fetchPage(base, (q) => q.selectAll('cg'), 'ocg.grant_id', { kind: 'offset', ...page }));
  }

  async clientIdsWithGrantForOrganization(
    tenantId: string,
    organizationId: string,
    after: string | undefined,
    limit: number,
  ): Promise<string[]> {
    // client_grants.client_id is not an id column (no "C" collation on PostgreSQL), so
    // the comparison and the order say byte-wise explicitly.
    const clientId = this.#byteWise(sql.ref('cg.client_id'));
    let q = this.#linkedGrants(tenantId, organizationId).where('cg.client_id', 'is not', null);
    if (after !== undefined) q = q.where(clientId, '>', after);
    const rows = await q.select(clientId.as('client_id')).distinct().orderBy('client_id').limit(limit).execute();
    return rows.map((r) => r.client_id);
  }

  async listByClientGrant(tenantId: string, grantId: string, page: PageQuery): Promise<Page<OrganizationRow>> {
    const base = this.db
      .selectFrom('organization_client_grants as ocg')
      .innerJoin('organizations as o', (join) => join.onRef('o.tenant_id', '=', 'ocg.tenant_id').onRef('o.id', '=', 'ocg.organization_id'))
      .where('ocg.tenant_id', '=', tenantId)
      .where('ocg.grant_id', '=', grantId);
    return parsedPage('organizations', fetchPage(base, (q) => q.selectAll('o'), 'o.id', page));
  }

  /** The organization's links joined to their grants, driven by the links' primary key. */
  #linkedGrants(tenantId: string, organizationId: string) {
    return this.db
      .selectFrom('organization_client_grants as ocg')
      .innerJoin('client_grants as cg', (join) => join.onRef('cg.tenant_id', '=', 'ocg.tenant_id').onRef('cg.id', '=', 'ocg.grant_id'))
      .where('ocg.tenant_id', '=', tenantId)
      .where('ocg.organization_id', '=', organizationId);
  }

  /** A text expression compared byte-wise: SQLite's default (BINARY) already is; PostgreSQL needs "C". */
  #byteWise(expression: RawBuilder<unknown>): RawBuilder<string> {
    return this.#postgres ? sql<string>`${expression} collate "C"` : sql<string>`${expression}`;
  }
}
