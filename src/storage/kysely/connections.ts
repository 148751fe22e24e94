/**
 * Storage of connections and of the clients each is enabled for
 * (`connection_clients`). The login code reads connections through
 * `getByName` and `enabledForClient`; the Management API through the rest.
 */
import { atomically, type Db } from '../database.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { ConnectionFilter, ConnectionChanges, ConnectionStore } from '../../domain/connections/store.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';
import { fetchPage, parsedPage } from '../paging.js';
import type { KeysetWindow, Page, PageQuery } from '../../domain/paging.js';

export class KyselyConnectionStore implements ConnectionStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, id: string): Promise<ConnectionRow | undefined> {
    return parsedRow('connections', this.db.selectFrom('connections').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  getByName(tenantId: string, name: string): Promise<ConnectionRow | undefined> {
    return parsedRow('connections', this.db.selectFrom('connections').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst());
  }

  async list(tenantId: string, filter: ConnectionFilter, page: PageQuery): Promise<Page<ConnectionRow>> {
    let base = this.db.selectFrom('connections').where('tenant_id', '=', tenantId);
    if (filter.strategies !== undefined) {
      if (filter.strategies.length === 0) return page.kind === 'offset' && page.withTotal ? { rows: [], total: 0 } : { rows: [] };
      base = base.where('strategy', 'in', [...filter.strategies]);
    }
    if (filter.name !== undefined) base = base.where('name', '=', filter.name);
    if (filter.clientId !== undefined) {
      const clientId = filter.clientId;
      base = base.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('connection_clients')
            .select('connection_clients.client_id')
            .whereRef('connection_clients.tenant_id', '=', 'connections.tenant_id')
            .whereRef('connection_clients.connection_id', '=', 'connections.id')
            .where('connection_clients.client_id', '=', clientId),
        ),
      );
    }
    return parsedPage('connections', fetchPage(base, (q) => q.selectAll(), 'id', page));
  }

  insert(row: ConnectionRow, enabledClients: readonly string[]): Promise<void> {
    return atomically(this.db, async (trx) => {
      await trx.insertInto('connections').values(toStored('connections', row)).execute();
      if (enabledClients.length > 0) {
        await trx
          .insertInto('connection_clients')
          .values([...new Set(enabledClients)].map((client_id) => ({ tenant_id: row.tenant_id, connection_id: row.id, client_id })))
          .execute();
      }
    });
  }

  update(tenantId: string, id: string, changes: ConnectionChanges, enabledClients?: readonly string[]): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const exists = await trx.selectFrom('connections').select('id').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      if (!exists) return false;
      if (Object.keys(changes).length > 0) {
        await trx.updateTable('connections').set(toStored('connections', changes)).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
      }
      if (enabledClients !== undefined) {
        await trx.deleteFrom('connection_clients').where('tenant_id', '=', tenantId).where('connection_id', '=', id).execute();
        if (enabledClients.length > 0) {
          await trx
            .insertInto('connection_clients')
            .values([...new Set(enabledClients)].map((client_id) => ({ tenant_id: tenantId, connection_id: id, client_id })))
            .execute();
        }
      }
      return true;
    });
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('connections').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async enabledClients(tenantId: string, connectionId: string, page?: KeysetWindow): Promise<string[]> {
    let query = this.db
      .selectFrom('connection_clients')
      .select('client_id')
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .orderBy('client_id');
    if (page?.after !== undefined) query = query.where('client_id', '>', page.after);
    if (page !== undefined) query = query.limit(page.limit);
    return (await query.execute()).map((r) => r.client_id);
  }

  setClientStatus(tenantId: string, connectionId: string, changes: readonly { client_id: string; status: boolean }[]): Promise<void> {
    return atomically(this.db, async (trx) => {
      // The last entry for a client wins, as if the changes were applied in order.
      const final = new Map(changes.map((c) => [c.client_id, c.status]));
      const off = [...final].filter(([, on]) => !on).map(([id]) => id);
      const on = [...final].filter(([, status]) => status).map(([id]) => id);
      if (off.length + on.length === 0) return;
      await trx
        .deleteFrom('connection_clients')
        .where('tenant_id', '=', tenantId)
        .where('connection_id', '=', connectionId)
        .where('client_id', 'in', [...off, ...on])
        .execute();
      if (on.length > 0) {
        await trx
          .insertInto('connection_clients')
          .values(on.map((client_id) => ({ tenant_id: tenantId, connection_id: connectionId, client_id })))
          .execute();
      }
    });
  }

  enabledForClient(tenantId: string, clientId: string): Promise<ConnectionRow[]> {
    return parsedRows(
      'connections',
      this.db
        .selectFrom('connections')
        .innerJoin('connection_clients', (join) =>
          join.onRef('connection_clients.tenant_id', '=', 'connections.tenant_id').onRef('connection_clients.connection_id', '=', 'connections.id'),
        )
        .selectAll('connections')
        .where('connections.tenant_id', '=', tenantId)
        .where('connection_clients.client_id', '=', clientId)
        .orderBy('connections.name')
        .execute(),
    );
  }

  async existingClients(tenantId: string, clientIds: readonly string[]): Promise<Set<string>> {
    if (clientIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('clients')
      .select('client_id')
      .where('tenant_id', '=', tenantId)
      .where('client_id', 'in', [...new Set(clientIds)])
      .execute();
    return new Set(rows.map((r) => r.client_id));
  }
}
