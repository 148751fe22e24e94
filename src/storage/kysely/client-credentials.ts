/** Clients' registered public keys and certificates (migration 0014). */
import type { Db } from '../database.js';
import type { ClientCredentialRow } from '../schema.js';
import type { ClientCredentialStore } from '../../domain/client-credentials/store.js';

export class KyselyClientCredentialStore implements ClientCredentialStore {
  constructor(private readonly db: Db) {}

  async insert(row: ClientCredentialRow): Promise<void> {
    await this.db.insertInto('client_credentials').values(row).execute();
  }

  list(tenantId: string, clientId: string): Promise<ClientCredentialRow[]> {
    return this.db
      .selectFrom('client_credentials')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('client_id', '=', clientId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  get(tenantId: string, clientId: string, id: string): Promise<ClientCredentialRow | undefined> {
    return this.db.selectFrom('client_credentials').selectAll().where((eb) => eb.and({ tenant_id: tenantId, client_id: clientId, id })).executeTakeFirst();
  }

  async updateExpiry(tenantId: string, clientId: string, id: string, expiresAt: string | null, updatedAt: string): Promise<ClientCredentialRow | undefined> {
    const one = { tenant_id: tenantId, client_id: clientId, id };
    await this.db.updateTable('client_credentials').set({ expires_at: expiresAt, updated_at: updatedAt }).where((eb) => eb.and(one)).execute();
    return this.get(tenantId, clientId, id);
  }

  async delete(tenantId: string, clientId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('client_credentials').where((eb) => eb.and({ tenant_id: tenantId, client_id: clientId, id })).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
