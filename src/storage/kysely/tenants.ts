import { insertClients } from './clients.js';
import { atomically, type Db } from '../database.js';
import type { TenantRow } from '../schema.js';
import type { TenantSettings } from '../../domain/tenants/settings.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';
import { isPostgres } from './user-search.js';
import type { TenantBundle, TenantStore } from '../../domain/tenants/store.js';

export class KyselyTenantStore implements TenantStore {
  constructor(private readonly db: Db) {}

  async create(bundle: TenantBundle): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.insertInto('tenants').values(toStored('tenants', bundle.tenant)).execute();
      if (bundle.signingKeys.length) await trx.insertInto('signing_keys').values(bundle.signingKeys.map((k) => toStored('signing_keys', k))).execute();
      await insertClients(trx, bundle.clients);
      if (bundle.resourceServers.length) await trx.insertInto('resource_servers').values(bundle.resourceServers.map((r) => toStored('resource_servers', r))).execute();
      if (bundle.clientGrants.length) await trx.insertInto('client_grants').values(bundle.clientGrants.map((g) => toStored('client_grants', g))).execute();
      for (const { row, enabledClients } of bundle.connections ?? []) {
        await trx.insertInto('connections').values(toStored('connections', row)).execute();
        const links = enabledClients.map((client_id) => ({ tenant_id: row.tenant_id, connection_id: row.id, client_id }));
        if (links.length) await trx.insertInto('connection_clients').values(links).execute();
      }
    });
  }

  async getByDomain(domain: string): Promise<TenantRow | undefined> {
    return parsedRow('tenants', this.db.selectFrom('tenants').selectAll().where('domain', '=', domain).executeTakeFirst());
  }

  async getById(id: string): Promise<TenantRow | undefined> {
    return parsedRow('tenants', this.db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst());
  }

  async getByIdForUpdate(id: string): Promise<TenantRow | undefined> {
    // SQLite runs one write transaction at a time, so only PostgreSQL needs the row lock.
    const query = this.db.selectFrom('tenants').selectAll().where('id', '=', id);
    return parsedRow('tenants', (isPostgres(this.db) ? query.forUpdate() : query).executeTakeFirst());
  }

  async getByName(name: string): Promise<TenantRow | undefined> {
    return parsedRow('tenants', this.db.selectFrom('tenants').selectAll().where('name', '=', name).executeTakeFirst());
  }

  async list(): Promise<TenantRow[]> {
    return parsedRows('tenants', this.db.selectFrom('tenants').selectAll().orderBy('created_at').orderBy('id').execute());
  }

  async updateSettings(id: string, settings: TenantSettings): Promise<boolean> {
    const result = await this.db.updateTable('tenants').set(toStored('tenants', { settings })).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
