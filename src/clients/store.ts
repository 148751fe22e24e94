import type { Db } from '../db/database.js';
import type { ClientsTable } from '../db/schema.js';

export type ClientRow = ClientsTable;

/** Storage of clients (applications). */
export interface ClientStore {
  /** The client, or undefined when the tenant has none with that id. */
  get(tenantId: string, clientId: string): Promise<ClientRow | undefined>;
  /** Inserts a client; fails on a duplicate (tenant, client_id). */
  insert(row: ClientRow): Promise<void>;
}

export class KyselyClientStore implements ClientStore {
  constructor(private readonly db: Db) {}

  async get(tenantId: string, clientId: string): Promise<ClientRow | undefined> {
    return this.db
      .selectFrom('clients')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  async insert(row: ClientRow): Promise<void> {
    await this.db.insertInto('clients').values(row).execute();
  }
}
