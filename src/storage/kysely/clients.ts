import { sql } from 'kysely';
import { atomically, type Db } from '../database.js';
import type { ClientRow } from '../schema.js';
import type { ClientFilter, ClientPageQuery, ListedClient, ClientStore } from '../../domain/clients/store.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

type Counted = Pick<ClientRow, 'global' | 'is_first_party' | 'app_type'>;

/** Adds `delta` to the count of clients like `client` (within the caller's transaction). */
async function adjustCount(trx: Db, tenantId: string, client: Counted, delta: number): Promise<void> {
  await trx
    .insertInto('client_counts')
    .values({ tenant_id: tenantId, global: client.global, is_first_party: client.is_first_party, app_type: client.app_type ?? '', n: delta })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'global', 'is_first_party', 'app_type']).doUpdateSet({ n: sql<number>`client_counts.n + ${delta}` }),
    )
    .execute();
}

/** Inserts clients and counts them, inside the caller's transaction (tenant creation uses it too). */
export async function insertClients(trx: Db, rows: readonly ClientRow[]): Promise<void> {
  if (!rows.length) return;
  await trx.insertInto('clients').values(rows.map((row) => toStored('clients', row))).execute();
  // One count update per kind of client, not per client.
  const groups = new Map<string, { tenantId: string; client: Counted; n: number }>();
  for (const row of rows) {
    const key = `${row.tenant_id}\u0000${row.global}\u0000${row.is_first_party}\u0000${row.app_type ?? ''}`;
    const group = groups.get(key) ?? { tenantId: row.tenant_id, client: row, n: 0 };
    group.n++;
    groups.set(key, group);
  }
  for (const { tenantId, client, n } of groups.values()) await adjustCount(trx, tenantId, client, n);
}

export class KyselyClientStore implements ClientStore {
  constructor(private readonly db: Db) {}

  async get(tenantId: string, clientId: string): Promise<ClientRow | undefined> {
    return parsedRow('clients', this.db.selectFrom('clients').selectAll().where('tenant_id', '=', tenantId).where('client_id', '=', clientId).executeTakeFirst());
  }

  async getByExternalClientId(tenantId: string, externalClientId: string): Promise<ClientRow | undefined> {
    return parsedRow(
      'clients',
      this.db.selectFrom('clients').selectAll().where('tenant_id', '=', tenantId).where('external_client_id', '=', externalClientId).executeTakeFirst(),
    );
  }

  async insert(row: ClientRow): Promise<void> {
    await atomically(this.db, (trx) => insertClients(trx, [row]));
  }

  async update(tenantId: string, clientId: string, changes: Partial<ClientRow>): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const before = await trx
        .selectFrom('clients')
        .select(['global', 'is_first_party', 'app_type'])
        .where('tenant_id', '=', tenantId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!before) return false;
      await trx.updateTable('clients').set(toStored('clients', changes)).where('tenant_id', '=', tenantId).where('client_id', '=', clientId).execute();
      const after = { ...before, ...changes };
      if (after.global !== before.global || after.is_first_party !== before.is_first_party || after.app_type !== before.app_type) {
        await adjustCount(trx, tenantId, before, -1);
        await adjustCount(trx, tenantId, after, 1);
      }
      return true;
    });
  }

  async delete(tenantId: string, clientId: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const before = await trx
        .selectFrom('clients')
        .select(['global', 'is_first_party', 'app_type'])
        .where('tenant_id', '=', tenantId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!before) return false;
      await trx.deleteFrom('client_grants').where('tenant_id', '=', tenantId).where('client_id', '=', clientId).execute();
      await trx.deleteFrom('clients').where('tenant_id', '=', tenantId).where('client_id', '=', clientId).execute();
      await adjustCount(trx, tenantId, before, -1);
      return true;
    });
  }

  #filtered(tenantId: string, filter: ClientFilter) {
    let query = this.db.selectFrom('clients').where('tenant_id', '=', tenantId);
    if (filter.global !== undefined) query = query.where('global', '=', filter.global ? 1 : 0);
    if (filter.isFirstParty !== undefined) query = query.where('is_first_party', '=', filter.isFirstParty ? 1 : 0);
    if (filter.appTypes !== undefined) query = query.where('app_type', 'in', filter.appTypes.length ? [...filter.appTypes] : ['']);
    if (filter.externalClientId !== undefined) query = query.where('external_client_id', '=', filter.externalClientId);
    if (filter.clientIds !== undefined) query = query.where('client_id', 'in', filter.clientIds.length ? [...filter.clientIds] : ['']);
    return query;
  }

  async list(tenantId: string, filter: ClientFilter, page: ClientPageQuery, withSecret: boolean): Promise<ListedClient[]> {
    let query = this.#filtered(tenantId, filter);
    if (page.kind === 'keyset' && page.after !== undefined) query = query.where('client_id', '>', page.after);
    if (page.kind === 'offset' && page.from !== undefined) query = query.where('client_id', '>=', page.from);
    const columns = withSecret
      ? (['client_id', 'global', 'config', 'client_secret_enc'] as const)
      : (['client_id', 'global', 'config'] as const);
    if (page.kind === 'offset' && page.offset > 0) {
      // Deferred join: skip the first rows on the index alone, then read only the page's rows.
      const ids = query.select('client_id').orderBy('client_id').limit(page.limit).offset(page.offset);
      return parsedRows(
        'clients',
        this.db.selectFrom('clients').select([...columns]).where('tenant_id', '=', tenantId).where('client_id', 'in', ids).orderBy('client_id').execute(),
      );
    }
    return parsedRows('clients', query.select([...columns]).orderBy('client_id').limit(page.limit).execute());
  }

  async idsWithAnyOrganizationGrant(tenantId: string, after: string | undefined, limit: number): Promise<string[]> {
    let q = this.db
      .selectFrom('client_grants')
      .select('client_id')
      .distinct()
      .where('tenant_id', '=', tenantId)
      .where('allow_any_organization', '=', 1)
      .where('client_id', 'is not', null);
    if (after !== undefined) q = q.where('client_id', '>', after);
    const rows = await q.orderBy('client_id').limit(limit).execute();
    return rows.map((r) => r.client_id!);
  }

  async count(tenantId: string, filter: ClientFilter): Promise<number> {
    if (filter.externalClientId !== undefined || filter.clientIds !== undefined) {
      const row = await this.#filtered(tenantId, filter)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }
    let query = this.db.selectFrom('client_counts').where('tenant_id', '=', tenantId);
    if (filter.global !== undefined) query = query.where('global', '=', filter.global ? 1 : 0);
    if (filter.isFirstParty !== undefined) query = query.where('is_first_party', '=', filter.isFirstParty ? 1 : 0);
    if (filter.appTypes !== undefined) query = query.where('app_type', 'in', filter.appTypes.length ? [...filter.appTypes] : ['\u0000']);
    const row = await query.select((eb) => eb.fn.sum<string | number | null>('n').as('n')).executeTakeFirstOrThrow();
    return Number(row.n ?? 0);
  }
}
